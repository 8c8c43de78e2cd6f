"""The venue's pages (issue 26): the desk of every bracket in play (`desk`), the event's public
page (`public`) and its hall screen (`hall`). A package of its own beside the event's pages
(scoring.events.views); the views contract in pyproject.toml names it too."""
