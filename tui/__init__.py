"""memrepo's terminal app (Textual) and command line.

Importing this package is cheap: Textual loads only when the app starts,
so ``memrepo remember`` does not pay for it.
"""
