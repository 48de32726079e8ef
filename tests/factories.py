from datetime import date

import factory

from players.models import Player, normalize


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = factory.Sequence(lambda n: f"Last{n}")
    nickname = ""
    date_of_birth = date(1985, 5, 17)
    card_number = factory.Sequence(lambda n: f"{200000 + n}")
    id_document_type = "id_card"
    id_document_number = factory.Sequence(lambda n: f"EB{100000 + n}")
    first_name_key = factory.LazyAttribute(lambda p: normalize(p.first_name))
    last_name_key = factory.LazyAttribute(lambda p: normalize(p.last_name))
    nickname_key = factory.LazyAttribute(lambda p: normalize(p.nickname))
