package rtnames

// Loads says what a runtime entry point may load (read the value of)
// through its arguments. The slicer (instrument/slice) needs it: it keeps
// every call into rt, and models memory by type, keeping a store of a T
// when some kept code may load a T. What rt reads through an argument must
// count as such a load, or a store it depends on is dropped; what rt only
// takes the address or extent of must not, or every store a check covers
// stays (a kernel's float64 stores, kept for R(t, &a[i], s)). The
// classification lives here, beside the names, so that a new entry point
// cannot be emitted without one (loads_test.go).
type Loads uint8

const (
	// LoadsReachable: the entry point may load anything its arguments
	// reach. It reads the values it is given (GuardInjective reads the
	// indices), or calls code with them (Plain and its kin, Waited,
	// Acquire's l.Lock()). The zero value: an unclassified name gets it.
	LoadsReachable Loads = iota
	// LoadsNothing: the entry point loads nothing through its arguments.
	// It checks their addresses and extents (R, ReadSpan, GuardW,
	// SameOrApart), compares or keeps an identity (Drains's channel,
	// Recovered's nil test), passes a value through (Done1, Set's v), or
	// moves elements from one place to another of the same type (Copy,
	// AppendSlice, Grow: what they move is read only if some kept load of
	// that type reads it, and they are stores of that type).
	LoadsNothing
	// LoadsRows: the entry point loads the row headers of its [][]T
	// argument (each []T: the rows' extents), not the rows' elements; of
	// a [][][]T, the headers at both levels.
	LoadsRows
)

// ArgLoads returns what the entry point name may load through its
// arguments; a name it does not know may load everything they reach.
func ArgLoads(name string) Loads { return loads[name] }

// loads classifies every function and method of rt named above, as rt's
// source does what it says (see each entry point there). Types and
// constants (Construct, Guard, SiteInfo, OrderedOK) are not called; Task is
// both a type and (*Construct).Task, which Begin calls.
var loads = map[string]Loads{
	// The happens-before hooks: identities of sync objects, the thread's own state.
	HB: LoadsNothing, HBRoot: LoadsNothing, EndRoot: LoadsNothing, InitVar: LoadsNothing, InitCall: LoadsNothing, InitVars2: LoadsNothing, InitVars3: LoadsNothing, InitVars4: LoadsNothing, GoHB: LoadsNothing, Start: LoadsNothing,
	Exit: LoadsNothing, Chan: LoadsNothing, Sync: LoadsNothing, Foreign: LoadsNothing, Unseen: LoadsNothing,
	ChanOp: LoadsNothing, RecvOp: LoadsNothing, SendOp: LoadsNothing, CloseOp: LoadsNothing,
	ChanSend: LoadsNothing, ChanRecv: LoadsNothing, ChanClose: LoadsNothing, SentOn: LoadsNothing, ClosedOn: LoadsNothing, MakeChan: LoadsNothing, PoolGot: LoadsNothing, MakeMap: LoadsNothing, Appended: LoadsNothing, Fresh: LoadsNothing, Sender: LoadsNothing, SendOnlySender: LoadsNothing, SyncOp: LoadsNothing, ReleaseOp: LoadsNothing, AcquireOp: LoadsNothing,
	SyncRelease: LoadsNothing, SyncAcquire: LoadsNothing, After: LoadsNothing, Escape: LoadsNothing, Escaped: LoadsNothing, Ref: LoadsNothing, EscapedIn: LoadsReachable, // it reads the channels in v
	CondWait: LoadsReachable, CondOp: LoadsReachable, // they read c.L
	TryAcquire: LoadsReachable, TryRAcquire: LoadsReachable, // they lock
	Once: LoadsReachable, Spawned: LoadsReachable, SpawnedJoined: LoadsReachable, SyncCall: LoadsReachable,
	Spawned1: LoadsReachable, Spawned2: LoadsReachable, Spawned3: LoadsReachable, Spawned4: LoadsReachable,
	Spawned0R: LoadsReachable, Spawned1R: LoadsReachable, Spawned2R: LoadsReachable, Spawned3R: LoadsReachable, Spawned4R: LoadsReachable,
	WaitCall: LoadsReachable, SyncValue: LoadsReachable, ForeignLater: LoadsReachable, ForeignLaterErr: LoadsReachable, StoreLater: LoadsReachable, ForeignNext: LoadsNothing, ForeignFunc: LoadsNothing, ForeignMethod: LoadsNothing, HBPackage: LoadsNothing,
	CloseLater: LoadsNothing, CloseLaterSendOnly: LoadsNothing, // their functions call f
	Later: LoadsReachable, Finalizer: LoadsReachable, Cleanup: LoadsReachable, // their functions call f
	AcquireAll: LoadsNothing,
	ReflectOf:  LoadsReachable, ReflectCopy: LoadsReachable, // their methods and Copy read through reflect
	ReadInto: LoadsReachable, ReadAtInto: LoadsReachable, WriteFrom: LoadsReachable, WriteAtFrom: LoadsReachable, // they call the method
	// Constructs, tasks and their blocks: rt's own state, ints, sites.
	Begin: LoadsNothing, Enter: LoadsNothing, Task: LoadsNothing, Fork: LoadsNothing,
	BeginFed: LoadsNothing, EnterFed: LoadsNothing, Quiescent: LoadsNothing,
	ForkIf: LoadsNothing, Join: LoadsNothing, JoinErr: LoadsNothing, Joined: LoadsNothing,
	Item: LoadsNothing, EndItems: LoadsNothing, Worker: LoadsNothing,
	Current: LoadsNothing, Attached: LoadsNothing, Attach: LoadsNothing, Detach: LoadsNothing,
	Sample: LoadsNothing, Sampled: LoadsNothing, Fini: LoadsNothing, Status: LoadsNothing,
	NoFini: LoadsNothing,
	// A pool's channel: its identity only (the interface's data word).
	Drains: LoadsNothing, ItemOf: LoadsNothing, EndItemsOf: LoadsNothing,
	// Checks: addresses and extents.
	R: LoadsNothing, W: LoadsNothing, RW: LoadsNothing, RA: LoadsNothing, WA: LoadsNothing,
	RWA: LoadsNothing, AR: LoadsNothing, AW: LoadsNothing, AROnly: LoadsNothing, AWOnly: LoadsNothing, MR: LoadsNothing, MW: LoadsNothing,
	ReadAll: LoadsNothing, WriteAll: LoadsNothing, ReadHead: LoadsNothing, WriteHead: LoadsNothing,
	ReadSpan: LoadsNothing, WriteSpan: LoadsNothing, Set: LoadsNothing,
	SameOrApart: LoadsNothing, SpanIn: LoadsNothing, SpansApart: LoadsNothing, StrideIn: LoadsNothing,
	// Moves of elements of one type, and fresh memory.
	Copy: LoadsNothing, CopyString: LoadsNothing, Grow: LoadsNothing,
	AppendSlice: LoadsNothing, AppendString: LoadsNothing, New: LoadsNothing, Make: LoadsNothing,
	// Guards: spans of backing arrays; rows through their headers;
	// GuardInjective* read the index values.
	NewGuard: LoadsNothing, GuardW: LoadsNothing, GuardR: LoadsNothing,
	GuardRLen: LoadsNothing, GuardWRange: LoadsNothing, Disjoint: LoadsNothing,
	GuardMemo: LoadsNothing, GuardStore: LoadsNothing, // a verdict in the construct, by the task
	GuardRowsW: LoadsRows, GuardRowsR: LoadsRows, GuardRowsWRange: LoadsRows,
	GuardPlanesW: LoadsRows, GuardPlanesR: LoadsRows,
	GuardInjective: LoadsReachable, GuardInjectiveCells: LoadsReachable,
	GuardInjectiveCellsOf: LoadsReachable,
	// Plain code: the opaque markers pass values through; the calls run
	// code with their arguments.
	Opaque: LoadsNothing, Done1: LoadsNothing, Done2: LoadsNothing, Done3: LoadsNothing,
	Done4: LoadsNothing, Recovered: LoadsNothing,
	Plain: LoadsReachable, PlainArgs1: LoadsReachable, PlainArgs2: LoadsReachable,
	PlainArgs3: LoadsReachable, PlainBefore: LoadsNothing, PlainAfter: LoadsNothing,
	// Calls of the goroutine's or the Wait's function, now or later.
	Bind: LoadsReachable, BindErr: LoadsReachable, Forked: LoadsReachable,
	Joined2: LoadsReachable, Waited: LoadsReachable, Waited1: LoadsReachable,
	Waited2: LoadsReachable,
	// Locks: l.Lock() may be any Locker's code.
	Acquire: LoadsReachable, Release: LoadsReachable, RAcquire: LoadsReachable,
	RRelease: LoadsReachable,
	// The site table is copied, and read when a report prints.
	RegisterSites: LoadsReachable,
}
