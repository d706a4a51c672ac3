"""The error of a user's mistake or bad input: its message is one line that
says what is wrong and what to do, and the command line prints it as it is
(`Error: ...`, exit status 1), never a traceback."""


class UserError(ValueError):
    """A mistake in what was asked or given, told in one line."""
