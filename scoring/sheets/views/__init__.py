"""The desk's pages of sheets, deals, incidents and a position's overview;
the tables' phone pages.
"""
