package rt

import (
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"
)

// funcsOp has an unexported and an exported method, for method values.
type funcsOp struct{ k int }

func (o funcsOp) apply(x int) int { return x + o.k }
func (o funcsOp) Apply(x int) int { return x * o.k }
func (o *funcsOp) Inc()           { o.k++ }

// funcsIncer is an interface with an exported method.
type funcsIncer interface{ Inc() }

// funcsApplier is an interface of rt with an unexported method: its
// implementations are all rt's.
type funcsApplier interface{ apply(int) int }

// funcsEmbed promotes sync.Mutex's methods and funcsOp's.
type funcsEmbed struct {
	sync.Mutex
	funcsOp
}

func funcsPlain(x int) int { return x - 1 }

// funcsOnce is a closure of sync.OnceFunc, which is inlined here: its
// symbol is rt's (rt.init.OnceFunc.func…), its file sync's.
var funcsOnce = sync.OnceFunc(func() {})

// funcsDir returns the directory of rt's files, as their functions' file
// names give it.
func funcsDir() string {
	file, _ := runtime.FuncForPC(funcPC(funcsPlain)).FileLine(funcPC(funcsPlain))
	return filepath.Dir(file)
}

// Which function values ForeignFunc takes for code an -hb build rewrote,
// with rt registered as such a package: rt's own functions, closures and
// unexported methods' values (an interface's too, every implementation
// being rt's), not a function of another package, an exported method's
// value (it may be an interface's), a promoted method's wrapper (it
// forwards to sync), assembly.
func TestHBRewrittenFuncs(t *testing.T) {
	HBPackage("github.com/goanomaly/goanomaly/rt", "rt", funcsDir())
	k := 3
	var e funcsEmbed
	var a funcsApplier = funcsOp{2}
	for _, c := range []struct {
		what string
		f    any
		want bool
	}{
		{"a function", funcsPlain, true},
		{"a closure", func(x int) int { return x + k }, true},
		{"an unexported method's value", funcsOp{1}.apply, true},
		{"an unexported interface method's value", a.apply, true},
		{"a promoted unexported method's value", e.apply, true},
		{"a generic function", Later[func()], true},
		{"an exported method's value", funcsOp{1}.Apply, false},
		{"an exported pointer method's value", (&funcsOp{1}).Inc, true},
		{"an exported interface method's value", funcsIncer(&funcsOp{1}).Inc, false},
		{"a promoted sync method's value", e.Lock, false},
		{"a promoted method's expression", funcsEmbed.apply, false},
		{"another package's function", fmt.Sprint, false},
		{"another package's method expression", (*sync.Mutex).Lock, false},
		{"assembly", getg, false},
		{"a closure of another package's function inlined here", funcsOnce, false},
	} {
		pc := funcPC(c.f)
		if got := hbRewrittenFunc(pc); got != c.want {
			t.Errorf("%s: rewritten %v, want %v", c.what, got, c.want)
		}
		for range 2 { // once computed, once cached
			if got := hbRewrittenPC(pc); got != c.want {
				t.Errorf("%s (cached): rewritten %v, want %v", c.what, got, c.want)
			}
		}
	}
}

// funcPC returns the code pointer of the func value f.
func funcPC(f any) uintptr { return reflect.ValueOf(f).Pointer() }

// ForeignFunc releases to the global clock before a call of another
// package's function, and not before a call of a registered one.
func TestHBForeignFuncReleasesOnlyForForeignCode(t *testing.T) {
	HBPackage("github.com/goanomaly/goanomaly/rt", "rt", funcsDir())
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	v0 := e.gver.Load()
	ForeignFunc(&p.task, funcsPlain)
	ForeignFunc(&p.task, funcsOp{1}.apply)
	if v := e.gver.Load(); v != v0 {
		t.Fatalf("a call of rt's own function released to the global clock (version %d -> %d)", v0, v)
	}
	ForeignFunc(&p.task, fmt.Sprint)
	if v := e.gver.Load(); v == v0 {
		t.Fatalf("a call of fmt.Sprint did not release to the global clock")
	}
	v1 := e.gver.Load()
	var nilf func()
	ForeignFunc(&p.task, nilf)
	if v := e.gver.Load(); v == v1 {
		t.Fatalf("a call of a nil func value did not release to the global clock")
	}
}

// The linker's prefixes: a command's symbols are main's, a path's last
// element's dots escaped.
func TestSymbolPrefixes(t *testing.T) {
	for _, c := range []struct{ path, name, want string }{
		{"example.com/cmd/x", "main", "main example.com/cmd/x"},
		{"gopkg.in/yaml.v3", "yaml", "gopkg.in/yaml%2ev3"},
		{"example.com/a.b/c", "c", "example.com/a.b/c"},
	} {
		if got := fmt.Sprint(symbolPrefixes(c.path, c.name)); got != "["+c.want+"]" {
			t.Errorf("symbolPrefixes(%q, %q) = %s, want [%s]", c.path, c.name, got, c.want)
		}
	}
	for _, c := range []struct{ sym, want string }{
		{"main.main.func1", "main"},
		{"github.com/x/y.(*T).m", "github.com/x/y"},
		{"gopkg.in/yaml%2ev3.Marshal", "gopkg.in/yaml%2ev3"},
		{"example.com/p.G[go.shape.*example.com/q.T]", "example.com/p"},
	} {
		if got := symbolPackage(c.sym); got != c.want {
			t.Errorf("symbolPackage(%q) = %q, want %q", c.sym, got, c.want)
		}
	}
}

// funcsJob is an interface whose methods are rewritten (Work, a pointer
// method of rt) and promoted from sync.WaitGroup (Add, Done, Wait): in
// the compiler's order Add, Done, Wait, Work.
type funcsJob interface {
	Work()
	Wait()
	Add(int)
	Done()
}

type funcsGroup struct {
	*sync.WaitGroup
	n int
}

func (g *funcsGroup) Work() { g.n++ }

// funcsApplierX is an interface with an exported method funcsOp has with
// a value receiver.
type funcsApplierX interface{ Apply(int) int }

// funcsApply calls Apply through the interface (see funcsWork).
//
//go:noinline
func funcsApply(a funcsApplierX) int { return a.Apply(1) }

// funcsWork calls Work through the interface, so the linker keeps the
// method in the table (an unreachable method's slot holds
// runtime.unreachableMethod, and a call the compiler devirtualizes is no
// use of it).
//
//go:noinline
func funcsWork(j funcsJob) { j.Work() }

// ForeignMethod reads the method's code from the interface's table: the
// rewritten method releases nothing, the promoted ones (wrappers of
// sync's) release to the global clock.
func TestHBForeignMethod(t *testing.T) {
	HBPackage("github.com/goanomaly/goanomaly/rt", "rt", funcsDir())
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	var j funcsJob = &funcsGroup{WaitGroup: &sync.WaitGroup{}}
	for m, want := range []bool{false, false, false, true} { // Add, Done, Wait, Work
		v := e.gver.Load()
		ForeignMethod(&p.task, j, m)
		if m == 3 {
			funcsWork(j)
		}
		if released := e.gver.Load() != v; released == want {
			t.Errorf("method %d: released to the global clock %v, want %v", m, released, !want)
		}
	}
	// A value receiver's method through an interface: the compiler's
	// pointer wrapper, rewritten once registered as declared so.
	var a funcsApplierX = funcsOp{2}
	funcsApply(a)
	for _, registered := range []bool{false, true} {
		if registered {
			HBPackage("github.com/goanomaly/goanomaly/rt", "rt", funcsDir(), "(*funcsOp).Apply")
		}
		v := e.gver.Load()
		ForeignMethod(&p.task, a, 0)
		if released := e.gver.Load() != v; released == registered {
			t.Errorf("a value method's wrapper, registered %v: released to the global clock %v", registered, released)
		}
	}
	var none funcsJob
	v := e.gver.Load()
	ForeignMethod(&p.task, none, 3)
	if e.gver.Load() == v {
		t.Errorf("a nil interface's method did not release to the global clock")
	}
}
