"""Solves an OPB file with Exact (PyPI `exact`, Python bindings only, so this reads the file)
and prints the PB competition's lines: `o`, `s OPTIMUM FOUND` (or `s SATISFIABLE` without an
objective, `s UNSATISFIABLE`) and one `v` line of `x`-named literals. It reads what
`puzzle-sat encode --format opb` writes: linear terms `COEF xN`, `>=` and `=` constraints, no
`~`. Used by tests/pb.rs and the PB benchmark (benches/pb.sh)."""
import sys

import exact

def main(path):
    e = exact.Exact()
    objective = None
    cons = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('*'):
            continue
        assert line.endswith(';'), line
        body = line[:-1].strip()
        if body.startswith('min:'):
            toks = body[4:].split()
            objective = [(int(toks[i]), toks[i+1]) for i in range(0, len(toks), 2)]
            continue
        for op in ('>=', '='):
            if op in body:
                lhs, rhs = body.split(op)
                toks = lhs.split()
                terms = [(int(toks[i]), toks[i+1]) for i in range(0, len(toks), 2)]
                cons.append((terms, op, int(rhs)))
                break
    names = set()
    for terms, _, _ in cons:
        names.update(v for _, v in terms)
    if objective:
        names.update(v for _, v in objective)
    order = sorted(names, key=lambda v: int(v[1:]))
    for v in order:
        e.addVariable(v)
    for terms, op, rhs in cons:
        e.addConstraint(terms, True, rhs, op == '=', rhs)
    if objective:
        e.setObjective(objective)
    state, _ = e.toOptimum()
    print("c exact:", state)
    if state == "UNSAT":
        print("s UNSATISFIABLE")
    elif state == "SAT" and e.hasSolution():
        vals = e.getLastSolutionFor(order)
        if objective:
            value = dict(zip(order, vals))
            print("o", sum(c * value[v] for c, v in objective))
        print("s OPTIMUM FOUND" if objective else "s SATISFIABLE")
        print("v " + " ".join(v if x else "-" + v for v, x in zip(order, vals)))
    else:
        print("s UNKNOWN")


main(sys.argv[1])
