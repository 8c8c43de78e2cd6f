"""Online pre-registration (a public page for phones) and the check-in at the door."""
