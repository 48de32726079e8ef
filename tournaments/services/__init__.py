"""Every write of the tournaments app: structures, tournaments and the clock."""
