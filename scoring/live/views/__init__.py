"""The pages that follow the evening: cockpit, hall screen, standings,
public pages.
"""
