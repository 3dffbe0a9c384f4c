// Package rtnames holds the names of the runtime entry points that
// instrumented code calls. It is the one place in instrument that knows
// them; a test keeps them in sync with package rt, which instrument never
// imports.
package rtnames

// Path is the runtime's import path.
const Path = "github.com/goanomaly/goanomaly/rt"

// The entry points, as rt spells them.
const (
	Task                  = "Task"                  // type of the hidden task parameter
	Construct             = "Construct"             // type of a construct's node (declared when elided, see rewrite)
	Begin                 = "Begin"                 // (t, n, site) (*Construct, *Task)
	Enter                 = "Enter"                 // (t, n, site) *Construct
	Fork                  = "Fork"                  // method of *Construct: (index) *Task
	Join                  = "Join"                  // method of *Construct
	JoinErr               = "JoinErr"               // method of *Construct: (error) error
	Bind                  = "Bind"                  // (c, index, func(*Task)) func()
	Joined                = "Joined"                // (c, r) r: joins c after a Wait returning one value
	Joined2               = "Joined2"               // (c, wait) (a, b): calls wait, joins c
	Waited                = "Waited"                // (c, wait): calls wait, joins c also when it panics
	Waited1               = "Waited1"               // (c, wait) r: Waited for one result
	Waited2               = "Waited2"               // (c, wait) (a, b): Waited for two results
	ForkIf                = "ForkIf"                // (c, index, concurrent) *Task: nil unless concurrent
	Current               = "Current"               // () *Task: the calling goroutine's task, nil outside constructs
	Attached              = "Attached"              // () bool: false when no goroutine is attached (the prologue's gate before Current)
	Attach                = "Attach"                // (t): the calling goroutine runs as t until Detach
	Detach                = "Detach"                // (): ends Attach
	BindErr               = "BindErr"               // (c, index, func(*Task) error) func() error
	Forked                = "Forked"                // (t, f) f
	Item                  = "Item"                  // method of *Task
	EndItems              = "EndItems"              // method of *Task
	Worker                = "Worker"                // method of *Task: the worker's own block inside an item
	Drains                = "Drains"                // method of *Task: (ch any): a worker of a pool over ch
	ItemOf                = "ItemOf"                // method of *Task: (ch any): Item when the task drains ch
	EndItemsOf            = "EndItemsOf"            // method of *Task: (ch any): EndItems when the task drains ch
	R                     = "R"                     // (t, p, site) p
	W                     = "W"                     // (t, p, site) p
	RW                    = "RW"                    // (t, p, site) p
	RA                    = "RA"                    // (t, p, site) p: whole array or struct
	WA                    = "WA"                    // (t, p, site) p
	RWA                   = "RWA"                   // (t, p, site) p
	ReadAll               = "ReadAll"               // (t, s, site) s: every element
	WriteAll              = "WriteAll"              // (t, s, site) s: every element written (clear)
	ReadHead              = "ReadHead"              // (t, s, n, site) s: the first n elements
	WriteHead             = "WriteHead"             // (t, s, n, site) s: the first n elements written
	ReadSpan              = "ReadSpan"              // (t, s, lo, hi, site): reads of s[lo:hi], clamped
	WriteSpan             = "WriteSpan"             // (t, s, lo, hi, site): writes of s[lo:hi], clamped
	SameOrApart           = "SameOrApart"           // (a, b) bool: one array from one element, or no byte shared
	SpanIn                = "SpanIn"                // (off, lo, hi, n) bool: off+j in [0, n) for j in [lo, hi), no overflow
	SpansApart            = "SpansApart"            // (a, alo, ahi, b, blo, bhi) bool: a[alo:ahi], b[blo:bhi] share no byte
	StrideIn              = "StrideIn"              // (off, coef, lo, hi, n) bool: coef*j+off in [0, n) for j in [lo, hi), no overflow
	AR                    = "AR"                    // (t, p, site) p
	AW                    = "AW"                    // (t, p, site) p
	AROnly                = "AROnly"                // (t, p, site) p: AR of memory only atomics touch (analysis.AtomicOnly)
	AWOnly                = "AWOnly"                // (t, p, site) p: AW of memory only atomics touch
	MR                    = "MR"                    // (t, m, site) m
	MW                    = "MW"                    // (t, m, site) m
	Copy                  = "Copy"                  // (t, dst, src, ws, rs) int
	CopyString            = "CopyString"            // (t, dst, src, ws) int
	Grow                  = "Grow"                  // (t, s, n, site) s
	AppendSlice           = "AppendSlice"           // (t, s, tail, ws, rs) append(s, tail...)
	AppendString          = "AppendString"          // (t, s, tail, ws, rs) append(s, tail...) of a string
	New                   = "New"                   // (t, p) p: new memory
	Make                  = "Make"                  // (t, s) s: new backing array
	Guard                 = "Guard"                 // type of an aliasing guard
	NewGuard              = "NewGuard"              // () *Guard
	GuardW                = "GuardW"                // (g, s) g: s's backing array is written
	GuardR                = "GuardR"                // (g, s) g: s's backing array is read
	GuardRLen             = "GuardRLen"             // (g, s) g: s's elements up to len(s) are read
	GuardWRange           = "GuardWRange"           // (g, s, lo, hi) g: s[lo:hi] is written (whole array if not 0 ≤ lo ≤ hi ≤ cap)
	GuardMemo             = "GuardMemo"             // (t) int: a callback's guard verdict stored for t's construct, -1 none yet
	GuardStore            = "GuardStore"            // (t, holds) holds: stores it
	GuardRowsW            = "GuardRowsW"            // (g, m) g: each row m[k] is written
	GuardRowsR            = "GuardRowsR"            // (g, m) g: each row m[k] is read
	GuardInjective        = "GuardInjective"        // (g, idx) g: idx holds no value twice
	GuardInjectiveCells   = "GuardInjectiveCells"   // (g, rows, T(0)) g: the cells of rows ([][N]T) hold no value twice
	GuardInjectiveCellsOf = "GuardInjectiveCellsOf" // (g, rows, sel, T(0)) g: the cells of the rows sel lists hold no value twice
	Disjoint              = "Disjoint"              // method of *Guard: () bool; the pruned version may run
	Set                   = "Set"                   // (t, p, site, v) v
	Acquire               = "Acquire"               // method of *Task: (sync.Locker)
	Release               = "Release"               // method of *Task: (sync.Locker)
	RAcquire              = "RAcquire"              // method of *Task: (*sync.RWMutex)
	RRelease              = "RRelease"              // method of *Task: (*sync.RWMutex)
	RegisterSites         = "RegisterSites"         // (first, []SiteInfo)
	SiteInfo              = "SiteInfo"              // struct{Pos, What string; Flags SiteFlag}
	OrderedOK             = "OrderedOK"             // SiteFlag
	Fini                  = "Fini"                  // (status)
	Status                = "Status"                // (status) status
	Opaque                = "Opaque"                // (x) x: the goroutine's task is opaque until Done (a call into plain code)
	Plain                 = "Plain"                 // (func()): calls it with the goroutine's task opaque
	PlainArgs1            = "PlainArgs1"            // (f, a): calls f(a) as Plain does; a deferred call's arguments evaluated at the defer
	PlainArgs2            = "PlainArgs2"            // (f, a, b): calls f(a, b) as Plain does
	PlainArgs3            = "PlainArgs3"            // (f, a, b, c): calls f(a, b, c) as Plain does
	Done1                 = "Done1"                 // (r) r: ends Opaque, passing the call's results on
	Done2                 = "Done2"                 // (a, b) (a, b)
	Done3                 = "Done3"                 // (a, b, c) (a, b, c)
	Done4                 = "Done4"                 // (a, b, c, d) (a, b, c, d)
	NoFini                = "NoFini"                // (): the program ends without Fini (a test binary whose examples run)
	Recovered             = "Recovered"             // (recover()) r: clears an opaque count a panic left
	Sample                = "Sample"                // () uint64: a dormant binary's root instance number when it runs checked, else 0
	Sampled               = "Sampled"               // method of *Construct: (k): the root construct is instance k
	// The happens-before layer of -hb builds (rt/api_hb.go).
	Spawn     = "Spawn"     // type: a parent's clock handed to the goroutine a go statement starts
	HB        = "HB"        // () *Task: the calling goroutine's happens-before task, or nil
	HBRoot    = "HBRoot"    // () *Task: makes the goroutine a thread (main, tests)
	EndRoot   = "EndRoot"   // method of *Task: ends HBRoot
	GoHB      = "Go"        // method of *Task: () *Spawn, right before a go statement
	Start     = "Start"     // method of *Spawn: () *Task, first statement of the goroutine
	Exit      = "Exit"      // method of *Task: deferred by the goroutine Start began
	Chan      = "Chan"      // method of *Task: (ch any) before a channel operation
	Sync      = "Sync"      // method of *Task: (obj any) before a WaitGroup, Cond or sync.Map call
	Once      = "Once"      // method of *Task: (*sync.Once, f) func(), the function to pass to Do
	Foreign   = "Foreign"   // method of *Task: () before a call into code not rewritten
	ChanOp    = "ChanOp"    // (t, ch) ch: Chan, then the receive, close or select case
	SendV     = "SendV"     // (t, ch, v) v: Chan after the sent value is computed
	SendOnlyV = "SendOnlyV" // SendV for a send-only channel
	SyncOp    = "SyncOp"    // (t, p) p: Sync, then the WaitGroup, Cond or sync.Map call on p
	SyncCall  = "SyncCall"  // (t, obj, f): Sync, then f (a deferred wg.Done)
	Spawned   = "Spawned"   // (s, f) f: the function a go statement starts, a thread from its start
)
