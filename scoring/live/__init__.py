"""The evening as it is followed: the arbiter's cockpit, the hall screen, what
counts, the standings and the public pages.
"""
