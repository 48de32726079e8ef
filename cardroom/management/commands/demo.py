"""Load the demo data once: one user per role, 60 players, and (from the apps that provide it)
a blind structure, a tournament open for registration and cash tables at 1/2 and 2/5 EUR.

Idempotent: every object is looked up by a natural key first, so running it again adds nothing.
"""

import random
from datetime import date
from importlib import import_module
from importlib.util import find_spec

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from cardroom.roles import Role
from cardroom.services import staff_role_grant
from players.models import Player
from players.services import player_create

DEMO_USERS = [
    ("floor", "Fiona", "Floor", Role.FLOOR),
    ("cashier", "Cyril", "Cashier", Role.CASHIER),
    ("cashier2", "Clara", "Cashier", Role.CASHIER),
    ("manager", "Martin", "Manager", Role.MANAGER),
    ("admin", "Adam", "Administrator", Role.ADMINISTRATOR),
]
DEMO_PASSWORD_SUFFIX = "-demo-2026"  # noqa: S105 - public demo log-ins, printed by make run

FIRST_NAMES = [
    "Ján",
    "Peter",
    "Martin",
    "Tomáš",
    "Lukáš",
    "Michal",
    "Jozef",
    "Marek",
    "Zuzana",
    "Eva",
    "Katarína",
    "Lucia",
    "Andrej",
    "Róbert",
    "Igor",
    "Pavol",
    "Juraj",
    "Mária",
    "Ivana",
    "Dávid",
]
LAST_NAMES = [
    "Novák",
    "Horváth",
    "Kováč",
    "Varga",
    "Tóth",
    "Nagy",
    "Baláž",
    "Szabó",
    "Molnár",
    "Šimko",
    "Lukáč",
    "Kráľ",
    "Urban",
    "Polák",
    "Kollár",
    "Mráz",
    "Hudák",
    "Král",
    "Bartoš",
    "Čech",
]
NICKNAMES = ["", "", "", "Shark", "Rock", "Ace", "Bluff", "Donk", "Nits", "Maniac"]


class Command(BaseCommand):
    help = "Load the demo data once (users per role, players, structure, tournament, cash tables)."

    def handle(self, *args, **options):
        with transaction.atomic():
            admin = self._users()
            created = self._players(admin)
        for loader in self._app_loaders():
            loader(actor=admin, stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS(f"Demo data ready ({created} new players)."))
        self.stdout.write("Demo log-ins (user / password):")
        for username, _first, _last, role in DEMO_USERS:
            self.stdout.write(f"  {role.value:<14} {username} / {username}{DEMO_PASSWORD_SUFFIX}")

    def _users(self):
        User = get_user_model()
        superuser = None
        for username, first, last, role in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"first_name": first, "last_name": last}
            )
            if created:
                user.set_password(f"{username}{DEMO_PASSWORD_SUFFIX}")
                # Administrators manage staff in the admin site, which needs is_staff.
                user.is_staff = role == Role.ADMINISTRATOR
                user.save()
                staff_role_grant(user=user, role=role.value)
            if role == Role.MANAGER:
                superuser = user
        return superuser

    def _players(self, actor) -> int:
        rng = random.Random(2026)  # the same 60 people every time
        created = 0
        for number in range(60):
            card = f"{100001 + number}"
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            dob = date(rng.randint(1950, 2004), rng.randint(1, 12), rng.randint(1, 28))
            nickname = rng.choice(NICKNAMES)
            if Player.objects.filter(card_number=card).exists():
                continue
            player_create(
                actor=actor,
                first_name=first,
                last_name=last,
                date_of_birth=dob,
                nickname=nickname,
                card_number=card,
                id_document_type="id_card",
                id_document_number=f"EA{700000 + number}",
            )
            created += 1
        return created

    def _app_loaders(self):
        """Demo loaders that the other apps provide (`<app>/demo.py` with a `load` function)."""
        return [
            import_module(f"{app}.demo").load
            for app in ("cashier", "chips", "tournaments", "cashgame")
            if find_spec(f"{app}.demo") is not None
        ]
