package soundfuzz

// The program model: a few functions of statements over slices of one
// element type, rendered to Go by render.go and executed by sim.go. Every
// element access is an Access statement, one per source line, so its site
// (file:line:col) is known exactly.

// Prog is one generated program.
type Prog struct {
	Family string  // the grammar family (see families in gen.go)
	Funcs  []*Func // Funcs[0] is the program's entry (Main)
}

// Func is a function: a package function, or (Lit) a literal stored in a
// variable or passed as an argument.
type Func struct {
	Name   string
	Params []Param
	Body   []Stmt
}

// Param is a parameter: a slice ("[]int", "[]uint32", …), "int",
// "*sync.WaitGroup" or a function ("func").
type Param struct {
	Name, Type string
}

// Stmt is one statement of the model.
type Stmt interface{}

// Make is name := make([]Elem, Len).
type Make struct {
	Name, Elem string
	Len        int
}

// Alias makes Name share Src's array from element Lo on. How: "slice"
// (src[lo:]), "append" (append(src[:lo], src[lo:]...), Lo ≥ 1: the same
// array from element 0), "unsafe" (unsafe.Slice(&src[lo], len(src)-lo)),
// "view" (a []float32 over a []uint32 made in another package).
type Alias struct {
	Name, Src, How string
	Lo             int
}

// Assign is Dst = Src (slices).
type Assign struct{ Dst, Src string }

// Swap is A, B = B, A (slices).
type Swap struct{ A, B string }

// Addr is Name := &Src[K].
type Addr struct {
	Name, Src string
	K         int
}

// Matrix is Name := make([][]Elem, Rows), every row Cols elements: its
// own make (How "rows"), or cut from one array, Stride elements apart
// (How "backing"; with Capped, each row's capacity is its length, else it
// reaches the array's end). Then, for each pair of Aliases, row [0]
// becomes row [1] (M[a] = M[b]).
type Matrix struct {
	Name, Elem string
	Rows, Cols int
	How        string
	Stride     int
	Capped     bool
	Aliases    [][2]int
}

// Access reads ('r'), writes ('w') or updates ('x', +=) Ref[Idx], or *Ref
// when Ptr, or Ref[Row][Idx] when Row is set (Ref a matrix).
type Access struct {
	Ref string
	Idx Affine
	Row *Affine
	Op  byte
	Ptr bool
	// NoteOK: a goanomaly note on the access's line stands for its
	// conflicts (an element a[w] by the worker's index in a pool's items,
	// which only a worker that takes an item touches, while the items
	// also index a otherwise: which pairs meet depends on the schedule).
	NoteOK bool

	guard bool // some execution is out of range: rendered under an if
	site  Site // set by the renderer
	span  Span // the access's line, set by the renderer when NoteOK
}

// Site is a position in the program's file.
type Site struct{ Line, Col int }

// Affine is Σ K·Var + D, evaluated in int (wrapping) arithmetic.
type Affine struct {
	Terms []Term
	D     int64
}

// Term is K·Var, or K·Var·Var2 when Var2 is set (a symbolic stride i*w).
type Term struct {
	K    int64
	Var  string
	Var2 string
}

// DeclInt is Name := V (an int variable).
type DeclInt struct {
	Name string
	V    int
}

// DeclDiv is Name := (Var+Add)*Mul/Div + D (Var*Mul/Div + D when Add
// is 0), Mul and Div int variables: a bound of a chunk of a division,
// lo, hi := w*n/k, (w+1)*n/k, in int (truncating, wrapping) arithmetic;
// when Clamp > 0, min(max(that, 0), Clamp); when Min > 0, min(that, Min)
// (a last chunk clipped at the end).
type DeclDiv struct {
	Name, Var, Mul, Div string
	Add, D, Clamp, Min  int64
}

// Sub is Name := Src[Lo:Hi], a sub-slice, or Src[Lo:min(Hi, Cap)] when
// Cap > 0 (a blocked range clipped at the end; the program keeps Lo ≤ Hi
// ≤ len(Src)).
type Sub struct {
	Name, Src string
	Lo, Hi    Affine
	Cap       int
}

// If runs Body when Var == Eq.
type If struct {
	Var  string
	Eq   int
	Body []Stmt
}

// Seq is a sequential loop for Var := 0; Var < N; Var++, or, when To is
// set, for Var := From; Var < To; Var++ (bounds in the enclosing loops'
// variables: triangular loops), Var += Step when Step names an int
// variable (≥ 1: a cyclic distribution, v := i; v < n; v += S).
type Seq struct {
	Var      string
	N        int
	From, To *Affine
	Step     string
	Incl     bool // with To: rendered Var <= To-1, the same iterations
	Body     []Stmt
}

// Par is a parallel loop: a goroutine per iteration (per chunk of Chunk
// iterations when Chunk > 0, the body then running for each iteration of
// the chunk with Var bound), joined by Join: "wg" (Add/Done), "wggo"
// (wg.Go), "errgroup" or "chan".
type Par struct {
	Join  string
	Var   string
	N     int
	Chunk int
	Body  []Stmt

	// Exit leaves the loop right after iteration ExitAt's fork without
	// the join: "return" (the construct is then in a function that takes
	// the WaitGroup WG from its caller), "goto" (to a label after the
	// join) or "break" (out of a one-pass loop around loop and join).
	// Repeat > 1 forks Repeat goroutines per iteration with a
	// backward goto.
	Exit   string
	ExitAt int
	Repeat int
	WG     string // the WaitGroup's name when it is declared outside (Exit)

	// NoteOK: a goanomaly note positioned in the construct's lines
	// stands for its goroutines' conflicts (noted, not checked).
	NoteOK bool

	span Span // lines of the construct, set by the renderer
}

// Span is a range of lines of the program's file.
type Span struct{ Lo, Hi int }

// DeclWG is var Name sync.WaitGroup.
type DeclWG struct{ Name string }

// WaitWG is Name.Wait(), joining every goroutine still counted.
type WaitWG struct{ Name string }

// CallWork calls Func (a package function of the program) with Args, a
// "&name" argument passing a WaitGroup's address.
type CallWork struct {
	Func string
	Args []string
}

// Call calls a function with Args (names of slices or int variables, or
// an Affine's rendering is not allowed: arguments are names). How: "func"
// (a package function named Fn), "closure" (a variable Fn declared by
// DeclClosure), "param" (a parameter Fn of the enclosing function). A
// note positioned on the call's line stands for the callee's conflicts
// when NoteOK.
type Call struct {
	Fn, How string
	Args    []string
	NoteOK  bool

	span Span
}

// DeclClosure is Name := func(params) { body }.
type DeclClosure struct {
	Name string
	Fn   *Func
}

// PassFunc calls package function Func with Args and, last, the function
// literal Lit (the callee's "param" calls run it).
type PassFunc struct {
	Func string
	Args []string
	Lit  *Func
}

// Pool is a worker pool: Items items 0..Items-1 sent on a channel that is
// closed, Workers goroutines ranging over it (WVar the worker's index,
// IVar the item); Pre runs in each worker before its item loop.
type Pool struct {
	Workers, Items int
	WVar, IVar     string
	Pre, Body      []Stmt
	id             int
}

// SyncLoop is a parallel loop of N goroutines (WaitGroup) in which
// iteration 0 runs Producer and then signals, and every other iteration
// waits for the signal and then runs Consumer; Own runs in every
// iteration first. How: "atomic" (a flag stored and spun on), "mutex" (a
// flag written and polled under a mutex), "chan" (a send per consumer).
type SyncLoop struct {
	How                 string
	Var                 string
	N                   int
	Own, Producer, Cons []Stmt
	NoteOK              bool

	span Span
}
