// Package analysis is goanomaly's static stage: it finds the parallel
// constructs of a package (goroutines forked in a loop or as a list of
// sections and joined by a WaitGroup, an errgroup or a join channel), the
// goroutines the model does not cover, and which variables can be shared
// between blocks. Its Result is what the rewriter and vet consume.
package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Kind is the kind of a construct, as reports name it.
type Kind string

// The construct kinds.
const (
	Loop     Kind = "parallel loop"
	Sections Kind = "parallel sections"
	Pool     Kind = "worker pool"
)

// Construct is one parallel construct: the statements First..Join of one
// statement list, where the statements before Join fork goroutines and Join
// waits for all of them.
type Construct struct {
	Kind     Kind
	List     []ast.Stmt // the enclosing statement list
	First    int        // index in List of the first statement that forks
	Join     int        // index in List of the joining statement
	JoinCall *ast.CallExpr
	Forks    []*Fork
	Index    *types.Var // the loop's index variable, named in reports (loops only)
	Counted  ast.Expr   // the number of iterations when it is cheap to evaluate at entry, or nil
	// Deferred is the `defer wg.Wait()` that joins the construct when the
	// function returns (deferwait.go). List is then a copy of the body's
	// list with an empty statement at the closing brace appended as Join,
	// so List[First:Join] is the rest of the body.
	Deferred *ast.DeferStmt
	// RuntimeCap are the semaphores bounding the goroutines whose capacity
	// only the run time knows (semaphore.go): a goroutine is checked only
	// when each has a capacity above 1 at its start.
	RuntimeCap []*types.Var
	// Feed are the parent's statements that fill the pool's channel
	// between the workers' starts and the join, its close last
	// (parentfeed.go).
	Feed []ast.Stmt
	// PoolLimit is the conc pool whose limit only the run time knows
	// (knownpools.go): a task is checked only when p.MaxGoroutines() != 1.
	PoolLimit *types.Var
}

// Fork is one goroutine start inside a construct.
type Fork struct {
	Node      ast.Node     // the *ast.GoStmt, or the *ast.CallExpr of wg.Go/g.Go
	Construct *Construct   // nil when the goroutine is not part of a construct
	Section   int          // section number (sections), or -1
	Body      *ast.FuncLit // the goroutine's function literal, if it is one
	Callee    *types.Func  // the goroutine's named function, if it is one
	Items     *ast.RangeStmt
	ErrGroup  bool // forked with errgroup's Go: the body returns error
	Producer  bool // a pool's producer goroutine, which fills its channel (producer.go)
	// The item loop of a worker that takes indices from an atomic
	// counter, and the counter (counter.go).
	Counter    *ast.ForStmt
	CounterVar *types.Var
	// The function literal held by the local variable ValueVar that the
	// goroutine starts (task := func(){…}; wg.Go(task)), followed as its
	// body (taskvar.go); or why a variable the goroutine starts could not
	// be followed (ValueWhy), for a fork that runs it through its prologue.
	Value    *ast.FuncLit
	ValueVar *types.Var
	ValueWhy string
}

// Note is a construct or goroutine the model does not cover, with why.
type Note struct {
	Pos token.Pos
	Msg string
	// Callee marks a note about code that only calls through values reach
	// (a function with a prologue, see dynamic.go): it matters only if some
	// construct makes such a call, so in a package without constructs vet
	// shows it and build, run and test do not.
	Callee bool
	// Coarse marks a note about code that stays checked, only at a coarser
	// grain than the rule it was refused (a callback's range one block per
	// worker rather than a block per item): it is printed without "not
	// checked".
	Coarse bool
}

// syncObj names what a goroutine signals at its end: a WaitGroup, an
// errgroup, or a join channel, as the expression text of its root.
type syncObj struct {
	kind string // "wg", "errgroup", "chan"
	expr string
}

// finder recognises constructs in the function bodies of one package.
type finder struct {
	why    map[ast.Node]string // why an unclaimed fork is not part of a construct
	info   *types.Info
	pkg    *types.Package
	files  []*ast.File
	res    *Result
	forkOf map[ast.Node]*Fork
	body   *ast.BlockStmt         // the body of the function whose lists are being searched
	joined map[*ast.CallExpr]bool // the Wait calls that join recognised constructs
	// The channel operations that only join a recognised construct whose
	// channel is its own (joinchan.go): syncIn does not count them.
	joinOps map[ast.Node]bool
	// The operations of the semaphores of the construct being checked
	// (semaphore.go), not counted by syncIn meanwhile.
	sems map[ast.Node]bool

	// What each function's results carry (siblings.go): why they are a
	// value only synchronization produced, from its own body (returns),
	// from other packages' facts (importedReturns), and after Link for
	// every function analysed together (rets); the functions whose results
	// it returns or whose results steer its control flow.
	returns, importedReturns, rets map[*types.Func]string
	returnCalls, steerCalls        map[*types.Func][]*types.Func

	// The functions that may end the calling goroutine (goexit.go): from
	// other packages' facts, and after Link for all.
	importedExits, exits map[*types.Func]string

	dynOwned       map[ast.Node]bool         // ownedOps, for the prologue decisions (dynamic.go)
	wraps          *Wrappers                 // wrapper types' Go and Wait methods (wrappers.go)
	producerWrites map[*types.Var]*varWrites // where locals are written, for producers (producer.go)
	takes          map[*ast.CallExpr]bool    // the counter takes of pool item loops (counter.go)
}

func (f *finder) funcBody(body *ast.BlockStmt) {
	if body != nil {
		outer := f.body
		f.body = body
		f.stmtList(body.List)
		f.body = outer
	}
}

// stmtList finds the constructs whose forks stand in list (at any depth of
// control flow but outside function literals). Nested lists go first, so an
// inner construct claims its forks before an enclosing list looks for a
// join; forks it leaves unclaimed may still be joined out here.
func (f *finder) stmtList(list []ast.Stmt) {
	for _, s := range list {
		f.nested(s)
	}
	for i := 0; i < len(list); i++ {
		if len(f.unclaimed(list[i])) == 0 {
			continue
		}
		if c := f.construct(list, i); c != nil {
			f.res.Constructs = append(f.res.Constructs, c)
			i = c.Join
		}
	}
}

// unclaimed lists the forks in s that no construct has claimed yet.
func (f *finder) unclaimed(s ast.Stmt) []ast.Node {
	var out []ast.Node
	for _, n := range f.forksIn(s) {
		if fk := f.forkOf[n]; fk == nil || fk.Construct == nil {
			out = append(out, n)
		}
	}
	return out
}

// nested visits the statement lists and function literals inside s.
func (f *finder) nested(s ast.Stmt) {
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			f.funcBody(n.Body)
			return false
		case *ast.BlockStmt: // a body, or a bare block standing in the list (s itself)
			f.stmtList(n.List)
			return false
		case *ast.CaseClause:
			f.stmtList(n.Body)
			return false
		case *ast.CommClause:
			f.stmtList(n.Body)
			return false
		}
		return true
	})
}

// forksIn lists the fork statements in s outside function literals.
func (f *finder) forksIn(s ast.Stmt) []ast.Node {
	var out []ast.Node
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			out = append(out, n)
		case *ast.CallExpr:
			if f.goMethod(n) != "" {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// construct tries to build the construct whose first fork is in list[i].
func (f *finder) construct(list []ast.Stmt, i int) *Construct {
	if c, ok := f.producerFirst(list, i); ok {
		return c
	}
	first := f.unclaimed(list[i])
	obj, why := f.syncOf(first[0])
	if why != "" {
		f.unstructured(first, why)
		return nil
	}
	c := &Construct{List: list, First: i, Join: -1}
	var forks []ast.Node
	var producers []*ast.GoStmt // between the workers and the join (producer.go)
	for j := i; j < len(list); j++ {
		if call := f.joins(list[j], obj); call != nil || (obj.kind == "chan" && f.chanJoins(list[j], obj)) {
			c.Join, c.JoinCall = j, call
			break
		}
		fs := f.unclaimed(list[j])
		if p, _ := f.midProducer(fs); p != nil && j > i {
			producers = append(producers, p)
			continue
		}
		for _, n := range fs {
			o, why := f.syncOf(n)
			if why != "" && o == obj {
				f.unstructured(fs, why)
				return nil
			}
			if why != "" || o != obj {
				f.unstructured(fs, "goroutines of one construct are joined in different ways")
				return nil
			}
		}
		forks = append(forks, fs...)
	}
	if c.Join < 0 {
		d := f.deferredWait(list, i, obj)
		if d == nil {
			if why := f.waitDeferredElsewhere(forks, obj); why != "" {
				f.unstructured(forks, why)
				return nil
			}
		} else {
			// The join is at the function's end: a statement after the body's last.
			list = append(list[:len(list):len(list)], &ast.EmptyStmt{Semicolon: f.body.Rbrace, Implicit: true})
			c.List, c.Join, c.JoinCall, c.Deferred = list, len(list)-1, d.Call, d
			if why := f.deferredWhy(list, d, i); why != "" {
				f.unstructured(forks, why)
				return nil
			}
		}
	}
	join0 := c.Join
	if obj.kind == "chan" && c.Join >= 0 {
		for c.Join+1 < len(list) && loopStmt(list[c.Join]) == nil && f.chanJoins(list[c.Join+1], obj) {
			c.Join++ // one receive per section
		}
	}
	if c.Join < 0 {
		why := neverJoined
		if w := f.waitInside(list[i:], obj); w != "" {
			why = w
		}
		f.unstructured(forks, why)
		return nil
	}
	if obj.kind == "chan" && !f.ownChannel(list[c.First:c.Join+1], obj) {
		f.unstructured(forks, "joined by channel "+obj.expr+", which this function does not make: constructs running at once may take each other's sends")
		return nil
	}
	if why := f.leaves(f.body, list, c.First, c.Join, c.Deferred != nil); why != "" {
		f.unstructured(forks, why)
		return nil
	}
	feed, feedCh, why := f.parentFeed(list, c.First, join0, obj) // parentfeed.go
	if why != "" {
		f.unstructured(forks, why)
		return nil
	}
	// The parent's code beside the goroutines, but for its feeding.
	region := list[c.First : join0-len(feed)]
	why, poolLimit := f.poolWhy(forks) // knownpools.go
	if why != "" {
		f.unstructured(forks, why)
		return nil
	}
	c.PoolLimit = poolLimit
	sems, runtimeCap, why := f.semaphores(region, forks, obj)
	if why != "" {
		f.unstructured(forks, why)
		return nil
	}
	f.sems = sems // not counted by syncIn while the construct is checked
	c.RuntimeCap = runtimeCap
	defer func() { f.sems = nil }()
	if why := f.parentSyncs(region, obj); why != "" { // the receives after join0 are the join's
		f.unstructured(forks, why)
		return nil
	}
	if obj.kind == "chan" {
		if why := f.joinCountMismatch(list, c.First, join0, c.Join, forks); why != "" {
			f.unstructured(forks, why)
			return nil
		}
	}
	c.Kind = Sections
	if loop := loopStmt(list[i]); loop != nil && c.Join == i+1 {
		c.Kind = Loop
		c.Index, c.Counted = f.loopIndex(loop)
	}
	for k, n := range forks {
		fk := f.fork(n, obj, list[c.First:c.Join])
		if fk == nil {
			f.unstructured(forks, f.why[n]) // one goroutine's reason is the construct's
			return nil
		}
		fk.Construct, fk.Section = c, -1
		if c.Kind == Sections {
			fk.Section = k
		}
		if fk.Items != nil {
			if !f.closedBefore(list[:i], fk.Items.X) && !f.filledBy(producers, fk.Items.X) && !isVarIdent(f.info, fk.Items.X, feedCh) {
				f.unstructured(forks, "workers receive from a channel that is not filled and closed before the construct")
				return nil
			}
			c.Kind = Pool
		}
		if fk.Counter != nil {
			c.Kind = Pool
		}
		c.Forks = append(c.Forks, fk)
	}
	if why := f.counterWhy(c, list[c.First:c.Join]); why != "" {
		f.unstructured(forks, why)
		return nil
	}
	if c.Kind == Pool {
		if why := f.repeats(list[i], forks); why != "" {
			f.unstructured(forks, why)
			return nil
		}
	}
	if feed != nil {
		if why := f.attachFeed(c, feed, feedCh); why != "" {
			f.unstructured(forks, why)
			return nil
		}
		c.Feed = feed
	}
	if c.Kind == Pool && loneWorker(c, list[c.First:c.Join]) {
		f.unstructured(append(forks, producerNodes(producers)...), "the pool has one worker, whose items run one after another: an order block tags cannot express")
		return nil
	}
	if why := f.attachMid(c, producers); why != "" {
		f.unstructured(append(forks, producerNodes(producers)...), why)
		return nil
	}
	for _, fk := range c.Forks {
		f.forkOf[fk.Node] = fk
	}
	if c.JoinCall != nil {
		if f.joined == nil {
			f.joined = map[*ast.CallExpr]bool{}
		}
		f.joined[c.JoinCall] = true
	}
	f.recordLocalJoin(c, f.body)
	for n := range sems {
		if f.joinOps == nil {
			f.joinOps = map[ast.Node]bool{}
		}
		f.joinOps[n] = true // the semaphore's operations order nothing the model relies on
	}
	return c
}

func loopStmt(s ast.Stmt) ast.Stmt {
	for {
		l, ok := s.(*ast.LabeledStmt)
		if !ok {
			break
		}
		s = l.Stmt
	}
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return s
	}
	return nil
}

// unstructured records why forks could not be part of a construct here; an
// enclosing statement list may still join them, so the note is only made
// for the forks no construct claims in the end (see notes).
func (f *finder) unstructured(forks []ast.Node, why string) {
	for _, n := range forks {
		if fk := f.forkOf[n]; fk == nil || fk.Construct == nil {
			if why != neverJoined || f.why[n] == "" {
				f.why[n] = why // an inner list's reason says more than that the outer has no join
			}
		}
	}
}

// neverJoined is the reason for forks whose statement list has no join.
const neverJoined = "goroutine is never joined in the block that starts it (no Wait or join receive follows)"

// demote turns every construct for which reason says why into goroutines
// the model does not cover: each start gets the note and no construct, so
// nothing in them is checked (a pass after the constructs are found:
// facts across functions, the file's language version).
func (f *finder) demote(reason func(c *Construct) string) {
	var keep []*Construct
	for _, c := range f.res.Constructs {
		why := reason(c)
		if why == "" {
			keep = append(keep, c)
			continue
		}
		for _, fk := range c.Forks {
			f.forkOf[fk.Node] = &Fork{Node: fk.Node, Section: -1}
			f.res.Notes = append(f.res.Notes, Note{Pos: fk.Node.Pos(), Msg: why})
		}
	}
	f.res.Constructs = keep
	sort.Slice(f.res.Notes, func(i, j int) bool { return f.res.Notes[i].Pos < f.res.Notes[j].Pos })
}

// loneWorker reports whether the pool c has one worker: one goroutine
// start that takes items (from a channel or a counter), outside every loop
// of stmts, the construct's statements. Its items are blocks of their own
// as in any pool, which holds them concurrent, but one goroutine runs them
// in order: a collector appending what it receives to a slice would be
// reported against itself (testdata/review19/collector). A start in a
// loop may be one worker at run time too (a count of 1, GOMAXPROCS on one
// CPU): a race between two of its items is then one of another input.
func loneWorker(c *Construct, stmts []ast.Stmt) bool {
	var worker ast.Node
	for _, fk := range c.Forks {
		if fk.Items == nil && fk.Counter == nil {
			continue
		}
		if worker != nil {
			return false
		}
		worker = fk.Node
	}
	if worker == nil {
		return false
	}
	inLoop, loops := false, 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loops++
			ast.Inspect(loopBody(x.(ast.Stmt)), visit)
			loops--
			return false
		}
		if n == worker && loops > 0 {
			inLoop = true
		}
		return !inLoop
	}
	for _, st := range stmts {
		ast.Inspect(st, visit)
	}
	return !inLoop
}
