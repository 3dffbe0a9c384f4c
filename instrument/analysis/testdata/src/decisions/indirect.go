package decisions

import "sync"

// a[idx[i]]: each iteration its own element when idx holds no value twice
// (checked at run time); a[idx[0]] is read by all, and no iteration from 1
// on writes it.
func throughIndex(a []float64, idx []int) {
	var wg sync.WaitGroup
	for i := 1; i < len(idx); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[idx[i]] = a[idx[0]] * 2 // want `a: read-only: nothing writes a while the construct runs` `a\[idx\[i\]\]: independent: each iteration touches its own elements of a \(when idx holds no value twice\)` `idx: read-only: nothing writes idx while the construct runs` `idx\[i\]: read-only: nothing in the construct writes idx` `i: private: no other goroutine writes i` `a: read-only: nothing writes a while the construct runs` `a\[idx\[0\]\]: independent: each iteration touches its own elements of a \(when idx holds no value twice\)` `idx: read-only: nothing writes idx while the construct runs` `idx\[0\]: read-only: nothing in the construct writes idx`
		})
	}
	wg.Wait()
}

// Iteration 0 writes a[0], which every iteration reads: not proven.
func readsOwnedByOne(a []float64) {
	var wg sync.WaitGroup
	for i := 0; i < len(a); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = a[0] + 1 // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: checked: not proven` `i: private: no other goroutine writes i` `a: read-only: nothing writes a while the construct runs` `a\[0\]: checked: not proven`
		})
	}
	wg.Wait()
}

// From 1 on, no iteration writes a[0].
func readsOwnedByNone(a []float64) {
	var wg sync.WaitGroup
	for i := 1; i < len(a); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = a[0] + 1 // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: independent: each iteration touches its own elements of a` `i: private: no other goroutine writes i` `a: read-only: nothing writes a while the construct runs` `a\[0\]: independent: each iteration touches its own elements of a`
		})
	}
	wg.Wait()
}

type simplex struct {
	rows  [][]float64
	val   []float64
	index []int
}

// sum reads row k of s: walked in place from move, k bound to s.index[i].
func (s *simplex) sum(k int) float64 {
	row := s.rows[k]
	t := 0.0
	for j := range row {
		t += row[j]
	}
	return t
}

// move writes row s.index[i] and calls sum on it: the call needs no
// checked clone.
func (s *simplex) move() {
	var wg sync.WaitGroup
	for i := 1; i < len(s.index); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := range s.rows[s.index[i]] { // want `s\.rows: read-only: nothing in the construct writes a \[\]\[\]float64` `s\.rows\[s\.index\[i\]\]: read-only: nothing in the construct writes s\.rows` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i`
				s.rows[s.index[i]][j] -= s.rows[s.index[0]][j] // want `s\.rows: read-only: nothing in the construct writes a \[\]\[\]float64` `s\.rows\[s\.index\[i\]\]: read-only: nothing in the construct writes s\.rows` `s\.rows\[s\.index\[i\]\]\[j\]: independent: each iteration touches its own elements of the rows of s\.rows \(when it is apart from s\.val and s\.index holds no value twice\)` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i` `s\.rows: read-only: nothing in the construct writes a \[\]\[\]float64` `s\.rows\[s\.index\[0\]\]: read-only: nothing in the construct writes s\.rows` `s\.rows\[s\.index\[0\]\]\[j\]: independent: each iteration touches its own elements of the rows of s\.rows \(when it is apart from s\.val and s\.index holds no value twice\)` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[0\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs`
			}
			s.val[s.index[i]] = s.sum(s.index[i]) // want `s\.val: read-only: nothing in the construct writes a \[\]float64` `s\.val\[s\.index\[i\]\]: independent: each iteration touches its own elements of s\.val \(when it is apart from s\.rows and s\.index holds no value twice\)` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i` `s\.sum\(s\.index\[i\]\): independent: every access sum makes is proven \(under the construct's guard\)` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// sumBoth calls sum twice: the second call is followed by type, and the
// writes of float64 leave nothing of rows proven.
func (s *simplex) sumBoth() {
	var wg sync.WaitGroup
	for i := 1; i < len(s.index); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			s.rows[s.index[i]][0] = s.sum(s.index[i]) + s.sum(s.index[0]) // want `s\.rows: read-only: nothing in the construct writes a \[\]\[\]float64` `s\.rows\[s\.index\[i\]\]: read-only: nothing in the construct writes s\.rows` `s\.rows\[s\.index\[i\]\]\[0\]: checked: not proven` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[0\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs`
		})
	}
	wg.Wait()
}

type mesh struct {
	elemNode [][3]int
	byColour [][]int
}

// assemble adds into y through the element-to-node index array, a colour
// at a time, in chunks: each chunk its own nodes when the nodes of the
// colour's elements hold no value twice (checked at run time).
func (m *mesh) assemble(y []float64, chunks int) {
	for _, elems := range m.byColour {
		var wg sync.WaitGroup
		for c := range chunks { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				for _, e := range elems[c*len(elems)/chunks : (c+1)*len(elems)/chunks] { // want `e: read-only: nothing in the construct writes elems` `elems: private: no other goroutine writes elems` `c: private: no other goroutine writes c` `elems: private: no other goroutine writes elems` `chunks: read-only: nothing writes chunks while the construct runs` `c: private: no other goroutine writes c` `elems: private: no other goroutine writes elems` `chunks: read-only: nothing writes chunks while the construct runs`
					en := &m.elemNode[e] // want `m\.elemNode: read-only: nothing in the construct writes a \[\]\[3\]int` `m: read-only: nothing writes m while the construct runs`
					for k := range 3 {
						y[en[k]] += 1 // want `y\[en\[k\]\]: independent: each iteration touches its own elements of y \(when the cells of the rows of m\.elemNode that elems lists hold no value twice and the chunk bounds from c \* len\(elems\) / chunks do not overflow\)` `y: read-only: nothing writes y while the construct runs` `en\[k\]: read-only: nothing in the construct writes m\.elemNode`
					}
				}
			})
		}
		wg.Wait()
	}
}

// assembleAll is the same over every element at once: neighbouring
// elements share nodes, and nothing says which ones; the guard fails on a
// real mesh and the checked version runs.
func (m *mesh) assembleAll(y []float64) {
	var wg sync.WaitGroup
	for e := range m.elemNode { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for k := range 3 {
				y[m.elemNode[e][k]] += 1 // want `y: read-only: nothing writes y while the construct runs` `y\[m\.elemNode\[e\]\[k\]\]: independent: each iteration touches its own elements of y \(when the cells of m\.elemNode hold no value twice\)` `m\.elemNode: read-only: nothing in the construct writes a \[\]\[3\]int` `m\.elemNode\[e\]\[k\]: read-only: nothing in the construct writes m\.elemNode` `m: read-only: nothing writes m while the construct runs` `e: private: no other goroutine writes e`
			}
		})
	}
	wg.Wait()
}

// a and idx are both []int: idx, read-only, must be apart from a too.
func sameType(a, idx []int) {
	var wg sync.WaitGroup
	for i := range idx { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[idx[i]] += i // want `a: read-only: nothing writes a while the construct runs` `a\[idx\[i\]\]: independent: each iteration touches its own elements of a \(when it is apart from idx and idx holds no value twice\)` `idx: read-only: nothing writes idx while the construct runs` `idx\[i\]: read-only: nothing in the construct writes idx \(when it is apart from a\)` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// idx is written by the loop: not an index it may rely on.
func writtenIndex(a, idx []int) {
	var wg sync.WaitGroup
	for i := range idx { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[idx[i]] += i // want `a: read-only: nothing writes a while the construct runs` `a\[idx\[i\]\]: checked: not proven` `idx: read-only: nothing writes idx while the construct runs` `idx\[i\]: independent: each iteration touches its own elements of idx \(when it is apart from a\)` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
			idx[i] = 0     // want `idx: read-only: nothing writes idx while the construct runs` `idx\[i\]: independent: each iteration touches its own elements of idx \(when it is apart from a\)` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// rowNorm calls sum: both are walked in place, k bound to s.index[i].
func (s *simplex) rowNorm(k int) float64 { return s.sum(k) * 2 }

// norms calls a callee that calls another: proven through both.
func (s *simplex) norms() {
	var wg sync.WaitGroup
	for i := range s.index { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			s.val[s.index[i]] = s.rowNorm(s.index[i]) // want `s\.val: read-only: nothing in the construct writes a \[\]float64` `s\.val\[s\.index\[i\]\]: independent: each iteration touches its own elements of s\.val \(when it is apart from s\.rows and s\.index holds no value twice\)` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i` `s\.rowNorm\(s\.index\[i\]\): independent: every access rowNorm makes is proven \(under the construct's guard\)` `s: read-only: nothing writes s while the construct runs` `s\.index: read-only: nothing in the construct writes a \[\]int` `s\.index\[i\]: read-only: nothing in the construct writes s\.index` `s: read-only: nothing writes s while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// perElement forks a goroutine per element of the list: the range's own
// value is elems[i], and the parent's reads of elems are read-only.
func perElement(y []float64, elemNode [][3]int, elems []int) {
	var wg sync.WaitGroup
	for _, e := range elems { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for k := range 3 {
				y[elemNode[e][k]] += 1 // want `y: read-only: nothing writes y while the construct runs` `y\[elemNode\[e\]\[k\]\]: independent: each iteration touches its own elements of y \(when the cells of the rows of elemNode that elems lists hold no value twice\)` `elemNode: read-only: nothing writes elemNode while the construct runs` `elemNode\[e\]\[k\]: read-only: nothing in the construct writes elemNode` `e: private: no other goroutine writes e`
			}
		})
	}
	wg.Wait()
}
