"""Puzzles: positions with a question decided within one turn, proved by search.

`model` reads and writes puzzle files, `questions` says what each question asks,
`solver` proves a question by exhaustive search of the rest of the turn, `generate`
mines puzzles from bot games. Nothing here imports the server or the web.
"""
