package soundfuzz

import "fmt"

// The simulation runs a program's model once, sequentially, running every
// goroutine to its end when it is started, and records each element access
// with a vector clock built from the program's real happens-before edges:
// program order, go statements, joins (Wait, a join channel), atomics,
// mutexes and channels between goroutines. Two accesses conflict when they
// touch one element, one writes, and neither clock precedes the other.
// This does not depend on the order the simulation ran the goroutines in,
// as long as each synchronizing receive runs after its send (iteration 0
// signals in SyncLoop, and runs first).
//
// A worker pool runs every worker over every item (the items any worker
// may take): two accesses of different workers conflict unless they are
// made for the same item (an item is taken once); accesses of one worker
// are ordered by the worker's program order.

// value is a variable of the model.
type value struct {
	kind     byte    // 's' slice, 'p' pointer, 'i' int, 'f' function, 'w' WaitGroup, 'm' matrix
	rows     []value // a matrix's rows
	arr, off int
	len      int
	elem     string
	i        int64
	fn       *Func
	wg       int
}

// access is one executed element access.
type access struct {
	site       *Access
	arr, idx   int
	write      bool
	task       int
	vc         []int
	pool, item int // the pool and item it was made for, or -1
	excuses    []*Span
}

type task struct {
	id int
	vc []int
}

type sim struct {
	prog    *Prog
	arrays  int
	tasks   int
	wgs     map[int][]*task // WaitGroup → goroutines not joined yet
	nwg     int
	acc     []access
	steps   int
	excuses []*Span
	pool    int
	item    int
}

// errSim is a model that cannot be run (a generator bug).
type errSim struct{ msg string }

func (e errSim) Error() string { return e.msg }

// simulate runs p and returns its accesses.
func simulate(p *Prog) (acc []access, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(errSim)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	s := &sim{prog: p, wgs: map[int][]*task{}, pool: -1, item: -1}
	main := s.newTask(nil)
	s.call(main, p.Funcs[0], map[string]value{})
	return s.acc, nil
}

func (s *sim) fail(format string, args ...any) {
	panic(errSim{fmt.Sprintf(format, args...)})
}

func (s *sim) newTask(parent *task) *task {
	t := &task{id: s.tasks}
	s.tasks++
	if parent != nil {
		t.vc = append([]int(nil), parent.vc...)
		parent.tick()
	}
	t.tick()
	return t
}

func (t *task) tick() {
	for len(t.vc) <= t.id {
		t.vc = append(t.vc, 0)
	}
	t.vc[t.id]++
}

// join makes everything t2 did precede t's next steps.
func (t *task) join(vc []int) {
	for len(t.vc) < len(vc) {
		t.vc = append(t.vc, 0)
	}
	for i, v := range vc {
		t.vc[i] = max(t.vc[i], v)
	}
}

func (s *sim) lookup(env map[string]value, name string) value {
	v, ok := env[name]
	if !ok {
		s.fail("undefined %s", name)
	}
	return v
}

func (s *sim) funcNamed(name string) *Func {
	for _, f := range s.prog.Funcs {
		if f.Name == name {
			return f
		}
	}
	s.fail("no function %s", name)
	return nil
}

// call runs f with env bound to its parameters; it returns when f returns.
func (s *sim) call(t *task, f *Func, env map[string]value) {
	s.block(t, f.Body, env)
}

// ctl is how a statement list ended.
type ctl int

const (
	ctlNext   ctl = iota
	ctlReturn     // a return statement
	ctlGoto       // a goto past the construct's join
)

func copyEnv(env map[string]value) map[string]value {
	out := make(map[string]value, len(env))
	for k, v := range env {
		out[k] = v
	}
	return out
}

func (s *sim) block(t *task, body []Stmt, env map[string]value) ctl {
	for _, st := range body {
		if c := s.stmt(t, st, env); c != ctlNext {
			return c
		}
	}
	return ctlNext
}

func (s *sim) stmt(t *task, st Stmt, env map[string]value) ctl {
	s.steps++
	if s.steps > 1e6 {
		s.fail("program too long")
	}
	switch st := st.(type) {
	case *Make:
		env[st.Name] = value{kind: 's', arr: s.arrays, len: st.Len, elem: st.Elem}
		s.arrays++
	case *Matrix:
		s.matrix(st, env)
	case *Alias:
		src := s.lookup(env, st.Src)
		if src.kind == 'm' && (st.Lo != 0 || st.How != "slice") {
			s.fail("a matrix aliased other than whole")
		}
		if st.Lo > src.len {
			s.fail("alias past the end")
		}
		v := src
		switch st.How {
		case "append":
			v.len = src.len // append(src[:lo], src[lo:]...) is src again
		case "view":
			v.off, v.len, v.elem = src.off+st.Lo, src.len-st.Lo, "float32"
		default:
			v.off, v.len = src.off+st.Lo, src.len-st.Lo
		}
		env[st.Name] = v
	case *DeclInt:
		env[st.Name] = value{kind: 'i', i: int64(st.V)}
	case *DeclDiv:
		x := s.lookup(env, st.Var).i + st.Add
		d := s.lookup(env, st.Div).i
		if d == 0 {
			s.fail("%s: division by zero", st.Name)
		}
		v := x*s.lookup(env, st.Mul).i/d + st.D
		if st.Clamp > 0 {
			v = min(max(v, 0), st.Clamp)
		}
		if st.Min > 0 {
			v = min(v, st.Min)
		}
		env[st.Name] = value{kind: 'i', i: v}
	case *Sub:
		src := s.lookup(env, st.Src)
		lo, hi := s.eval(env, st.Lo), s.eval(env, st.Hi)
		if st.Cap > 0 {
			hi = min(hi, int64(st.Cap))
		}
		if lo < 0 || lo > hi || hi > int64(src.len) {
			s.fail("%s[%d:%d] out of range", st.Src, lo, hi)
		}
		env[st.Name] = value{kind: 's', arr: src.arr, off: src.off + int(lo), len: int(hi - lo), elem: src.elem}
	case *Assign:
		env[st.Dst] = s.lookup(env, st.Src)
	case *Swap:
		a, b := s.lookup(env, st.A), s.lookup(env, st.B)
		env[st.A], env[st.B] = b, a
	case *Addr:
		src := s.lookup(env, st.Src)
		if st.K >= src.len {
			s.fail("address past the end")
		}
		env[st.Name] = value{kind: 'p', arr: src.arr, off: src.off + st.K}
	case *Access:
		s.access(t, st, env)
	case *If:
		if s.lookup(env, st.Var).i == int64(st.Eq) {
			return s.block(t, st.Body, env)
		}
	case *Seq:
		from, to := int64(0), int64(st.N)
		if st.To != nil {
			to = s.eval(env, *st.To)
			if st.From != nil {
				from = s.eval(env, *st.From)
			}
		}
		step := int64(1)
		if st.Step != "" && st.To != nil {
			if step = s.lookup(env, st.Step).i; step < 1 {
				s.fail("a loop step below 1")
			}
		}
		for i := from; i < to; i += step {
			inner := copyEnv(env)
			inner[st.Var] = value{kind: 'i', i: i}
			if c := s.block(t, st.Body, inner); c != ctlNext {
				return c
			}
			// slices assigned in the body are the loop's (declared outside)
			for k, v := range inner {
				if _, ok := env[k]; ok && k != st.Var {
					env[k] = v
				}
			}
		}
	case *Par:
		return s.par(t, st, env)
	case *DeclWG:
		env[st.Name] = value{kind: 'w', wg: s.nwg}
		s.nwg++
	case *WaitWG:
		s.wait(t, s.lookup(env, st.Name).wg)
	case *CallWork:
		f := s.funcNamed(st.Func)
		s.call(t, f, s.bind(f, st.Args, env, nil))
	case *Call:
		var f *Func
		var ex []*Span
		switch st.How {
		case "func":
			f = s.funcNamed(st.Fn)
		default:
			f = s.lookup(env, st.Fn).fn
		}
		if st.NoteOK {
			ex = []*Span{&st.span}
		}
		saved := s.excuses
		s.excuses = append(append([]*Span(nil), s.excuses...), ex...)
		s.call(t, f, s.bind(f, st.Args, env, nil))
		s.excuses = saved
	case *DeclClosure:
		env[st.Name] = value{kind: 'f', fn: st.Fn}
	case *PassFunc:
		f := s.funcNamed(st.Func)
		s.call(t, f, s.bind(f, st.Args, env, st.Lit))
	case *Pool:
		s.runPool(t, st, env)
	case *SyncLoop:
		s.syncLoop(t, st, env)
	default:
		s.fail("unknown statement %T", st)
	}
	return ctlNext
}

// bind binds f's parameters to args (and a trailing function literal).
func (s *sim) bind(f *Func, args []string, env map[string]value, lit *Func) map[string]value {
	out := map[string]value{}
	n := len(args)
	if lit != nil {
		n++
	}
	if n != len(f.Params) {
		s.fail("%s: %d arguments for %d parameters", f.Name, n, len(f.Params))
	}
	for i, a := range args {
		if len(a) > 0 && a[0] == '&' {
			a = a[1:]
		}
		out[f.Params[i].Name] = s.lookup(env, a)
	}
	if lit != nil {
		out[f.Params[len(args)].Name] = value{kind: 'f', fn: lit}
	}
	return out
}

func (s *sim) eval(env map[string]value, a Affine) int64 {
	v := a.D
	for _, term := range a.Terms {
		x := term.K * s.lookup(env, term.Var).i
		if term.Var2 != "" {
			x *= s.lookup(env, term.Var2).i
		}
		v += x
	}
	return v
}

func (s *sim) access(t *task, a *Access, env map[string]value) {
	ref := s.lookup(env, a.Ref)
	var arr, idx int
	if a.Ptr {
		if ref.kind != 'p' {
			s.fail("*%s is not a pointer", a.Ref)
		}
		arr, idx = ref.arr, ref.off
	} else {
		if a.Row != nil {
			if ref.kind != 'm' {
				s.fail("%s[row] is not a matrix", a.Ref)
			}
			r := s.eval(env, *a.Row)
			if r < 0 || r >= int64(len(ref.rows)) {
				a.guard = true
				return
			}
			ref = ref.rows[r]
		}
		i := s.eval(env, a.Idx)
		if i < 0 || i >= int64(ref.len) {
			a.guard = true // rendered under if uint(i) < uint(len(ref))
			return
		}
		arr, idx = ref.arr, ref.off+int(i)
	}
	rec := access{site: a, arr: arr, idx: idx, task: t.id, vc: append([]int(nil), t.vc...),
		pool: s.pool, item: s.item, excuses: s.excuses}
	if a.NoteOK {
		rec.excuses = append(append([]*Span(nil), s.excuses...), &a.span)
	}
	if a.Op == 'r' || a.Op == 'x' {
		s.acc = append(s.acc, rec)
	}
	if a.Op == 'w' || a.Op == 'x' {
		rec.write = true
		s.acc = append(s.acc, rec)
	}
}

// matrix makes the rows of m: arrays of their own, or one array with the
// rows at Stride apart, then the aliases.
func (s *sim) matrix(m *Matrix, env map[string]value) {
	v := value{kind: 'm', len: m.Rows, elem: m.Elem}
	arr := s.arrays
	for k := range m.Rows {
		row := value{kind: 's', arr: arr, off: k * m.Stride, len: m.Cols, elem: m.Elem}
		if m.How == "rows" {
			row.arr, row.off = s.arrays+k, 0
		}
		v.rows = append(v.rows, row)
	}
	s.arrays += m.Rows
	for _, a := range m.Aliases {
		v.rows[a[0]] = v.rows[a[1]]
	}
	env[m.Name] = v
}

// fork runs body in a new goroutine started by t; its end is counted on
// WaitGroup wg.
func (s *sim) fork(t *task, wg int, body func(*task)) {
	c := s.newTask(t)
	body(c)
	s.wgs[wg] = append(s.wgs[wg], c)
}

func (s *sim) wait(t *task, wg int) {
	for _, c := range s.wgs[wg] {
		t.join(c.vc)
	}
	s.wgs[wg] = nil
	t.tick()
}

func (s *sim) par(t *task, p *Par, env map[string]value) ctl {
	var wg int
	if p.WG != "" {
		wg = s.lookup(env, p.WG).wg
	} else {
		wg = s.nwg
		s.nwg++
	}
	saved := s.excuses
	if p.NoteOK {
		s.excuses = append(append([]*Span(nil), s.excuses...), &p.span)
	}
	defer func() { s.excuses = saved }()
	step := 1
	if p.Chunk > 0 {
		step = p.Chunk
	}
	repeat := max(p.Repeat, 1)
	for c := 0; c < p.N; c += step {
		for range repeat {
			s.fork(t, wg, func(g *task) {
				if p.Chunk == 0 {
					inner := copyEnv(env)
					inner[p.Var] = value{kind: 'i', i: int64(c)}
					s.goroutine(g, p.Body, inner)
					return
				}
				for j := c; j < min(c+step, p.N); j++ {
					inner := copyEnv(env)
					inner[p.Var] = value{kind: 'i', i: int64(j)}
					s.goroutine(g, p.Body, inner)
				}
			})
		}
		if p.Exit != "" && c == p.ExitAt {
			s.excuses = saved
			if p.Exit == "return" {
				return ctlReturn
			}
			return ctlNext // goto or break past the join: the goroutines are not joined
		}
	}
	s.wait(t, wg)
	return ctlNext
}

// goroutine runs a goroutine's body; a return in it ends only the goroutine.
func (s *sim) goroutine(g *task, body []Stmt, env map[string]value) {
	if s.block(g, body, env) == ctlReturn {
		s.fail("return in a goroutine body")
	}
}

func (s *sim) runPool(t *task, p *Pool, env map[string]value) {
	wg := s.nwg
	s.nwg++
	for w := 0; w < p.Workers; w++ {
		s.fork(t, wg, func(g *task) {
			inner := copyEnv(env)
			inner[p.WVar] = value{kind: 'i', i: int64(w)}
			s.goroutine(g, p.Pre, inner)
			savedPool, savedItem := s.pool, s.item
			s.pool = p.id
			for it := 0; it < p.Items; it++ {
				s.item = it
				itemEnv := copyEnv(inner)
				itemEnv[p.IVar] = value{kind: 'i', i: int64(it)}
				s.goroutine(g, p.Body, itemEnv)
			}
			s.pool, s.item = savedPool, savedItem
		})
	}
	s.wait(t, wg)
}

func (s *sim) syncLoop(t *task, p *SyncLoop, env map[string]value) {
	wg := s.nwg
	s.nwg++
	saved := s.excuses
	if p.NoteOK {
		s.excuses = append(append([]*Span(nil), s.excuses...), &p.span)
	}
	var signal []int // the producer's clock at its release
	for i := 0; i < p.N; i++ {
		s.fork(t, wg, func(g *task) {
			inner := copyEnv(env)
			inner[p.Var] = value{kind: 'i', i: int64(i)}
			s.goroutine(g, p.Own, inner)
			if i == 0 {
				s.goroutine(g, p.Producer, inner)
				signal = append([]int(nil), g.vc...)
				g.tick()
				return
			}
			if signal == nil {
				s.fail("consumer before producer")
			}
			g.join(signal)
			g.tick()
			s.goroutine(g, p.Cons, inner)
		})
	}
	s.excuses = saved
	s.wait(t, wg)
}

// happensBefore reports whether a precedes b.
func happensBefore(a, b access) bool {
	return a.task < len(b.vc) && a.vc[a.task] <= b.vc[a.task]
}

// concurrent reports whether a and b can run in either order.
func concurrent(a, b access) bool {
	if a.pool >= 0 && a.pool == b.pool && a.item == b.item && a.item >= 0 {
		return false // one item is run by one worker
	}
	return !happensBefore(a, b) && !happensBefore(b, a)
}
