"""Every write of the cash games: games and stakes, tables, sessions, the hand log, drop-box
counts, jackpot claims, waiting lists and rulings. Import from the submodules."""
