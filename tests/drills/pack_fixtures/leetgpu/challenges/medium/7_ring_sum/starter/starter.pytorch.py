def solve(x, y, n):
    pass
