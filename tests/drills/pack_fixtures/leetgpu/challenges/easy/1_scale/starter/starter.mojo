fn solve():
    pass
