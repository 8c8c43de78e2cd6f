"""Create a club on this server and its first administrator (a superuser's command)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.clubs.services import club_create


class Command(BaseCommand):
    help = (
        'Create a club and its first administrator: `create_club "TC Dijon" --admin lea '
        "[--code 0212345] [--password ...]` (the password creates the account when it is new, "
        "the club's administrator at once; an existing account is invited)."
    )

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--admin", required=True, help="the administrator's username")
        parser.add_argument("--code", default="", help="the FFT club number")
        parser.add_argument("--password", default="", help="creates the account if it is new")

    @transaction.atomic
    def handle(self, *args, name: str, admin: str, code: str, password: str, **options):
        accounts = get_user_model().objects
        account = accounts.filter(username=admin).first()
        created = account is None
        try:
            if created:
                if not password:
                    raise CommandError(f"No account '{admin}': give --password to create it.")
                account = accounts.model(username=admin)
                validate_password(password, account)
                account.set_password(password)
                account.save()
            # An existing account is invited (it joins by accepting, issue 36); one made here
            # for the club is its administrator at once.
            club = club_create(name=name, code=code, admin=account, admin_is_new=created)
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None
        joined = "administrator" if created else "invited as administrator (accepts on login)"
        self.stdout.write(self.style.SUCCESS(f"Club '{club.name}' created, '{admin}' {joined}."))
