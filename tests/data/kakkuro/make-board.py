import random, sys
def board(n, seed, density=0.3, dots=8):
    rnd = random.Random(seed)
    while True:
        g = [[rnd.random() < density for _ in range(n)] for _ in range(n)]
        g[0][0] = True
        def isolated(r, c):
            return all(not (0 <= r+dr < n and 0 <= c+dc < n) or g[r+dr][c+dc] for dr, dc in ((1,0),(-1,0),(0,1),(0,-1)))
        # The line counts first: they reject most draws of dense boards, and cheaply.
        ok = all(sum(1 for c in range(n) if not g[r][c]) <= 9 for r in range(n)) and all(sum(1 for r in range(n) if not g[r][c]) <= 9 for c in range(n)) and not any(g[r][c] and isolated(r, c) for r in range(n) for c in range(n))
        if ok: break
    grays = [(r,c) for r in range(n) for c in range(n) if g[r][c]]
    red = set(rnd.sample(grays, dots))
    lines = []
    for r in range(n):
        lines.append(" ".join("@" if (r,c) in red else "#" if g[r][c] else "." for c in range(n)))
    return "\n".join(lines) + "\n"
n, seed = int(sys.argv[1]), int(sys.argv[2])
d = float(sys.argv[3]) if len(sys.argv) > 3 else 0.3
print(f"; {n}x{n} board, 8 red dots, seed {seed}, gray density {d}")
print(board(n, seed, d), end="")
