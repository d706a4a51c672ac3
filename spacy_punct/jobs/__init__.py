"""The commands' jobs as library calls: every decision a command makes
(which reader, which writer, which engine, which pipeline) taken here, so
that a command only gathers its options, runs a job and prints."""
