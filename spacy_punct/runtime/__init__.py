"""What a process running pipelines sets up: torch threads, the garbage
collector, native caches, the factories a config needs."""
