"""Cash-game pages: tables and the dealer tablet (floor), the cashier's cash-game desk, games
(managers), drop-box counts, jackpot claims, waiting lists with the public board, rulings and
the floor's calculators. Each POST calls one service; a refused request shows the rule.

One module per page group, named as the services it calls; urls.py imports the modules."""
