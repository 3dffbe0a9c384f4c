package rt

import (
	"reflect"
	"sync"
	"unsafe"
)

// The generic helpers below let the rewriter check an access by wrapping the
// expression that makes it, without adding statements or lines: a read of
// a[i] becomes *rt.R(t, &a[i], s), a write a[i] = v becomes
// *rt.W(t, &a[i], s) = v. Each evaluates its operand exactly once, in the
// place the original evaluated it, so evaluation order, short-circuiting and
// panics are those of the user's code. All are safe with a nil task.

// R checks a read of *p and returns p.
func R[T any](t *Task, p *T, s Site) *T {
	if t != nil { // nil: an -hb function's thread inside a construct's goroutine, which its clone checks
		t.Read(uintptr(unsafe.Pointer(p)), s)
	}
	return p
}

// W checks a write of *p and returns p.
func W[T any](t *Task, p *T, s Site) *T {
	if t != nil { // nil: an -hb function's thread inside a construct's goroutine, which its clone checks
		t.Write(uintptr(unsafe.Pointer(p)), s)
	}
	return p
}

// RW checks the read and the write of *p that x += y and x++ make, and
// returns p. It checks the write alone. The read conflicts only with
// writes, and the write has the same shadow word (block, site, lockset):
// it conflicts with each of them in the same class, and every later access
// that would conflict with the read conflicts with it too. So one write
// check reports every location and class the two did (exactly under
// protocol=locked, as completely as any write under the wait-free one); a
// pair the read would have printed as WRITE-READ or READ-WRITE prints as
// WRITE-WRITE. TestRWIsOneWrite checks the argument against the oracle.
func RW[T any](t *Task, p *T, s Site) *T {
	if t != nil { // nil: an -hb function's thread inside a construct's goroutine, which its clone checks
		t.Write(uintptr(unsafe.Pointer(p)), s)
	}
	return p
}

// AR checks a sync/atomic load of *p and returns p.
func AR[T any](t *Task, p *T, s Site) *T {
	t.AtomicRead(uintptr(unsafe.Pointer(p)), s)
	return p
}

// AW checks a sync/atomic store, add, swap or compare-and-swap of *p and returns p.
func AW[T any](t *Task, p *T, s Site) *T {
	t.AtomicWrite(uintptr(unsafe.Pointer(p)), s)
	return p
}

// AROnly is AR for memory that only sync/atomic's operations touch (a
// typed atomic local used only through its methods): its accesses can
// conflict only with other atomic ones, which are reported only with
// atomics=1 or under a common lock, so it checks nothing otherwise.
func AROnly[T any](t *Task, p *T, s Site) *T {
	if t.atomicsMatter() {
		t.AtomicRead(uintptr(unsafe.Pointer(p)), s)
	}
	return p
}

// AWOnly is AW for memory that only sync/atomic's operations touch (see
// AROnly).
func AWOnly[T any](t *Task, p *T, s Site) *T {
	if t.atomicsMatter() {
		t.AtomicWrite(uintptr(unsafe.Pointer(p)), s)
	}
	return p
}

// atomicsMatter reports whether an atomic access by t can be part of a
// report against another atomic one: with atomics=1, or when t holds a
// lock (conflicts under a common lock are NONDETERMINISM, classify).
func (t *Task) atomicsMatter() bool {
	if t == nil {
		return false
	}
	if t.sh == nil {
		return t.hb != nil // a thread's atomics synchronize and race with plain accesses
	}
	return wordLockset(t.base) != 0 || t.tree.rep.cfg.atomics || t.tree.hb != nil
}

// mapID is the identity of a map: the pointer its header holds (0 for a
// nil map). Any write to a map conflicts with any access to the same map,
// so the map is one location. M is a map type, which the rewriter
// guarantees; it is not constrained to ~map[K]V with K comparable: an
// interface K satisfies comparable only from go1.20 on, and the
// instantiation is checked at the language version of the calling
// module, so map[interface{}]T broke the build of a go 1.18 module
// (golang.org/x/sync's syncmap).
func mapID[M any](m *M) uintptr {
	return *(*uintptr)(unsafe.Pointer(m))
}

// MR checks a read of map m (index, range, len) and returns m.
func MR[M any](t *Task, m M, s Site) M {
	if id := mapID(&m); id != 0 {
		t.Read(id, s)
	}
	return m
}

// MW checks a write of map m (assignment to m[k], delete, clear) and returns m.
func MW[M any](t *Task, m M, s Site) M {
	if id := mapID(&m); id != 0 {
		t.Write(id, s)
	}
	return m
}

// Copy checks then performs copy(dst, src): writes of the elements of dst
// and reads of the elements of src that copy touches, at each leaf of the
// element type.
// dst and src may be of different slice types of one element type
// (type B []byte copied to []byte), as copy allows.
func Copy[D ~[]E, S ~[]E, E any](t *Task, dst D, src S, ws, rs Site) int {
	n := min(len(dst), len(src))
	if n > 0 && t != nil {
		size, l := unsafe.Sizeof(dst[0]), leavesOf[E]()
		t.leaves(uintptr(unsafe.Pointer(&src[0])), uintptr(n), size, l, rs, false)
		t.leaves(uintptr(unsafe.Pointer(&dst[0])), uintptr(n), size, l, ws, true)
	}
	return copy(dst, src)
}

// RA checks a read of the whole array or struct *p, at each of its leaves.
func RA[T any](t *Task, p *T, s Site) *T {
	if t != nil {
		t.leaves(uintptr(unsafe.Pointer(p)), 1, 0, leavesOf[T](), s, false)
	}
	return p
}

// WA checks a write of the whole array or struct *p, at each of its leaves.
func WA[T any](t *Task, p *T, s Site) *T {
	if t != nil {
		t.leaves(uintptr(unsafe.Pointer(p)), 1, 0, leavesOf[T](), s, true)
	}
	return p
}

// RWA checks x op= y on a whole array or struct *p: as RW, the write
// alone, at each leaf, reports every pair the read would.
func RWA[T any](t *Task, p *T, s Site) *T {
	return WA(t, p, s)
}

// ReadAll checks reads of every element of s, at each leaf (append(x, s...)).
func ReadAll[S ~[]E, E any](t *Task, s S, site Site) S {
	if len(s) > 0 && t != nil {
		var zero E
		t.leaves(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s)), unsafe.Sizeof(zero), leavesOf[E](), site, false)
	}
	return s
}

// WriteAll checks writes of every element of s, at each leaf (clear(s)).
func WriteAll[S ~[]E, E any](t *Task, s S, site Site) S {
	if len(s) > 0 && t != nil {
		var zero E
		t.leaves(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s)), unsafe.Sizeof(zero), leavesOf[E](), site, true)
	}
	return s
}

// ReadHead checks reads of the first n elements of s (fewer when s is
// shorter): binary.LittleEndian.Uint32(b) reads b[0:4] only.
func ReadHead[S ~[]E, E any](t *Task, s S, n int, site Site) S {
	ReadAll(t, s[:min(n, len(s))], site)
	return s
}

// WriteHead checks writes of the first n elements of s (fewer when s is
// shorter): binary.LittleEndian.PutUint32(b, v) writes b[0:4] only.
func WriteHead[S ~[]E, E any](t *Task, s S, n int, site Site) S {
	WriteAll(t, s[:min(n, len(s))], site)
	return s
}

// CopyString checks then performs copy(dst, src) from a string.
func CopyString[S ~[]byte](t *Task, dst S, src string, ws Site) int {
	n := min(len(dst), len(src))
	if n > 0 {
		t.WriteRange(uintptr(unsafe.Pointer(&dst[0])), uintptr(n), 1, ws)
	}
	return copy(dst, src)
}

// Grow checks the element writes that append(s, n elements) makes in place
// (when s has room) or the element reads it makes to copy s (when it does
// not), and returns s for the append.
func Grow[S ~[]E, E any](t *Task, s S, n int, site Site) S {
	if n <= 0 || t == nil {
		return s
	}
	if t.hb != nil {
		t.hb.growFresh = cap(s)-len(s) < n // append will allocate: Appended forgets the new array
	}
	var zero E
	size, l := unsafe.Sizeof(zero), leavesOf[E]()
	if cap(s)-len(s) >= n {
		t.leaves(uintptr(unsafe.Pointer(unsafe.SliceData(s)))+uintptr(len(s))*size, uintptr(n), size, l, site, true)
	} else if len(s) > 0 {
		t.leaves(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s)), size, l, site, false)
	}
	return s
}

// Bind forks the child of c for index and returns f bound to the child's task,
// for wg.Go(f) and go statements whose callee takes the task first. The
// child runs attached to its task (Attach), so the functions it calls
// through values find it (Current).
func Bind(c *Construct, index int, f func(*Task)) func() {
	t := c.Fork(index)
	return func() {
		attach(t, nil)
		defer detach()
		f(t)
	}
}

// ForkIf is c.Fork(index) when concurrent, and nil otherwise: the
// goroutine is then not checked. The rewriter uses it for a construct
// bounded by a channel semaphore whose capacity is known only at run time
// (concurrent is cap(sem) > 1): a capacity of 1 runs the goroutines one
// after another, an order block tags cannot express, so that instance's
// goroutines are left unchecked rather than reported.
func ForkIf(c *Construct, index int, concurrent bool) *Task {
	if !concurrent {
		return nil
	}
	return c.Fork(index)
}

// BindErr is Bind for errgroup's func() error.
func BindErr(c *Construct, index int, f func(*Task) error) func() error {
	t := c.Fork(index)
	return func() error {
		attach(t, nil)
		defer detach()
		return f(t)
	}
}

// JoinErr joins c after the call that produced err returned (err := g.Wait()).
func (c *Construct) JoinErr(err error) error {
	c.Join()
	return err
}

// Joined joins c after the Wait that produced r returned, and returns r:
// res := p.Wait() of a pool whose Wait returns its tasks' results (conc's
// ResultPool). c joins before res is assigned, so the assignment is the
// parent's code after the join, as it is in the program.
func Joined[R any](c *Construct, r R) R {
	c.Join()
	return r
}

// Joined2 calls wait, joins c, and returns wait's results:
// res, err := p.Wait() of conc's ResultErrorPool and ResultContextPool,
// whose two results cannot be passed with c in one call.
func Joined2[A, B any](c *Construct, wait func() (A, B)) (A, B) {
	a, b := wait()
	c.Join()
	return a, b
}

// Acquire locks l and records that t holds it (mu.Lock()).
func (t *Task) Acquire(l sync.Locker) {
	l.Lock()
	if t.hbLocker(l, true) { // hb_wcp_lock.go
		return
	}
	t.Lock(lockID(l))
}

// TryAcquire tries to lock mu and, when it did, records that t holds it
// (mu.TryLock()).
func (t *Task) TryAcquire(mu interface {
	sync.Locker
	TryLock() bool
}) bool {
	if !mu.TryLock() {
		return false
	}
	t.Lock(lockID(mu))
	return true
}

// TryRAcquire tries to read-lock rw and, when it did, records it as
// RAcquire does (rw.TryRLock()).
func (t *Task) TryRAcquire(rw *sync.RWMutex) bool {
	if !rw.TryRLock() {
		return false
	}
	if t != nil && t.hb != nil {
		th := t.hbOf()
		th.rlockAcquired(uintptr(unsafe.Pointer(rw)))
		th.mu.Unlock()
		return true
	}
	t.Lock(uintptr(unsafe.Pointer(rw)))
	return true
}

// Release records that t no longer holds l, then unlocks it (mu.Unlock()).
func (t *Task) Release(l sync.Locker) {
	if !t.hbLocker(l, false) {
		t.Unlock(lockID(l))
	}
	l.Unlock()
}

// RAcquire read-locks rw and records that t holds it (rw.RLock()).
func (t *Task) RAcquire(rw *sync.RWMutex) {
	rw.RLock()
	if t != nil && t.hb != nil { // a reader follows the writers, not the other readers
		th := t.hbOf()
		th.rlockAcquired(uintptr(unsafe.Pointer(rw)))
		th.mu.Unlock()
		return
	}
	t.Lock(uintptr(unsafe.Pointer(rw)))
}

// RRelease records that t no longer holds rw, then read-unlocks it.
func (t *Task) RRelease(rw *sync.RWMutex) {
	if t != nil && t.hb != nil { // the next Lock follows it
		th := t.hbOf()
		th.runlocking(uintptr(unsafe.Pointer(rw)))
		th.mu.Unlock()
		rw.RUnlock()
		return
	}
	t.Unlock(uintptr(unsafe.Pointer(rw)))
	rw.RUnlock()
}

// lockID is the identity of a lock: the address its interface value holds.
// Acquire and RAcquire of the same RWMutex give the same id.
func lockID(l sync.Locker) uintptr {
	return (*[2]uintptr)(unsafe.Pointer(&l))[1]
}

// Begin is Enter followed by Task, for the rewriter's one statement before
// a construct.
func Begin(t *Task, n int, site Site) (*Construct, *Task) {
	c := Enter(t, n, site)
	return c, c.Task()
}

// BeginFed is Begin with EnterFed.
func BeginFed(t *Task, n int, site Site) (*Construct, *Task) {
	c := EnterFed(t, n, site)
	return c, c.Task()
}

// Forked returns f, which a construct's goroutine is about to run, wrapped
// to run attached to t (see Attach), after its operand forked the child's
// block in the parent: `go f(x)` and wg.Go(f) with a callee that cannot
// take a task. f's own code finds t through a prologue (Current). A nil t
// or a nil f is returned as it is (go of a nil function fails as written).
// Wrapping allocates once per goroutine; a signature other than func() and
// func() error goes through reflect.MakeFunc.
func Forked[F any](t *Task, f F) F {
	if t == nil {
		return f
	}
	switch g := any(f).(type) {
	case func():
		if g == nil {
			return f
		}
		return any(func() {
			attach(t, nil)
			defer detach()
			g()
		}).(F)
	case func() error:
		if g == nil {
			return f
		}
		return any(func() error {
			attach(t, nil)
			defer detach()
			return g()
		}).(F)
	}
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return f
	}
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		attach(t, nil)
		defer detach()
		if v.Type().IsVariadic() {
			return v.CallSlice(args)
		}
		return v.Call(args)
	}).Interface().(F)
}

// Status is Fini without the exit: it prints what Fini prints and returns
// the status Fini would exit with. The rewriter wraps m.Run() in a user's
// TestMain with it, so os.Exit(m.Run()) still reports data races.
func Status(status int) int { return defaultReporter().finish(status) }

// New forgets the access history of the memory p points to, which was just
// allocated (var v T, new(T), &T{…} inside construct code), and returns p.
func New[T any](t *Task, p *T) *T {
	escape(unsafe.Pointer(p))
	hbForgetFresh(t, uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p))
	if t != nil && t.sh != nil && t.sh.cells.Load() != 0 {
		t.fresh(uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p))
		t.clearLeaves(uintptr(unsafe.Pointer(p)), 1, unsafe.Sizeof(*p), leavesOf[T]())
	}
	return p
}

// Ref returns the address of a new variable holding v, as &[]T{…} and
// &map[K]V{…} make one: the rewriter wraps such a literal in Make or
// MakeMap, a call, whose address Go does not take.
func Ref[T any](v T) *T { return &v }

// Set checks a write of *p made with value v, after v was computed, and
// returns v: x = f() becomes x = _ga_rt.Set(t, &x, site, f()), so a lock
// taken inside f is held at the check, as it is at the write.
func Set[T any](t *Task, p *T, s Site, v T) T {
	t.Write(uintptr(unsafe.Pointer(p)), s)
	return v
}

// Make forgets the access history of the backing array of s, which make
// just allocated inside construct code (see New), and returns s.
func Make[S ~[]E, E any](t *Task, s S) S {
	escape(unsafe.Pointer(unsafe.SliceData(s)))
	if c := cap(s); c > 0 {
		var zero E
		hbForgetFresh(t, uintptr(unsafe.Pointer(unsafe.SliceData(s[:c]))), uintptr(c)*unsafe.Sizeof(zero))
	}
	if c := cap(s); c > 0 && t != nil && t.sh != nil && t.sh.cells.Load() != 0 {
		var zero E
		a := uintptr(unsafe.Pointer(unsafe.SliceData(s[:c])))
		t.freshElems(a, uintptr(c), unsafe.Sizeof(zero))
		t.clearLeaves(a, uintptr(c), unsafe.Sizeof(zero), leavesOf[E]())
	}
	return s
}
