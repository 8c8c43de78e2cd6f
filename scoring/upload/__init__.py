"""A finished tournament sent from a club's laptop to its comité's server (issue 40).

On the server: `keys` (a club's upload keys: issued, listed, revoked, checked) and `receive`
(every check before a sent tournament is taken, then its version stored). On the laptop: `send`
(the document, the request, the server's answer kept). `views` and `urls` for both sides.
"""
