"""Cash-game API: games, tables, sessions, the hand log, drop-box counts, jackpot claims,
waiting lists, rulings and the floor's calculators. Every view names its permission classes;
a DomainError becomes {"code", "detail", "rule"} (cardroom.api.exception_handler)."""
