"""The events' pages: the desk's list, an event's page, a bracket's cut and replacement
(`event`); the venue's desk of every bracket in play (`venue`), the event's public page
(`public`) and its hall screen (`hall`). Their documents are scoring.documents'."""
