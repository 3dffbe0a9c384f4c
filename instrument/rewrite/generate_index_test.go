package rewrite

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The proofs through index arrays (analysis/indirect.go) hold only when the
// data says so: an index slice that holds no value twice, the nodes of one
// colour's elements that hold no node twice. generateIndexed writes
// programs where that is true in some runs and false in others, where the
// loop's own iteration may write the element every iteration reads, and
// where a leaf callee reads the rows through its parameter, so the guard,
// the positions and the callees walked in place are all exercised against
// the conservative build.

// TestPruningLosesNoReportIndexed is the soundness guard over programs of
// generateIndexed: built pruned and conservatively, the same site pairs.
func TestPruningLosesNoReportIndexed(t *testing.T) {
	t.Parallel()
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			checkGenerated(t, generateIndexed(indexedRand(seed)), true)
		})
	}
}

// FuzzIndexedLosesNoReport explores generateIndexed's programs:
// go test -fuzz FuzzIndexedLosesNoReport ./instrument/rewrite.
func FuzzIndexedLosesNoReport(f *testing.F) {
	f.Add(uint64(100))
	f.Fuzz(func(t *testing.T, seed uint64) {
		t.Parallel() // no effect when fuzzing
		checkGenerated(t, generateIndexed(indexedRand(seed)), true)
	})
}

func indexedRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 3)) }

// generateIndexed writes a main package: a simplex-like update through an
// index array (rows and a vector, with a leaf callee reading the row), a
// coloured assembly through an element-to-node array, each called on
// data that does or does not keep the iterations apart, and a planted
// race so that every program reports something. Subscripts stay in range
// and no control flow depends on a racing value.
func generateIndexed(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\"fmt\"\n\"runtime\"\n\"sync\"\n)\n\n")
	b.WriteString(`type simplex struct {
	rows  [][]float64
	val   []float64
	index []int
}

// sum reads row k.
func (s *simplex) sum(k int) float64 {
	row := s.rows[k]
	t := 0.0
	for j := range row {
		t += row[j]
	}
	return t
}

`)
	first, fixed := r.IntN(2), r.IntN(2) // the loop's first index; the row every iteration reads
	fmt.Fprintf(&b, `func (s *simplex) move() {
	var wg sync.WaitGroup
	for i := %d; i < len(s.index); i++ {
		wg.Go(func() {
			for j := range s.rows[s.index[i]] {
				s.rows[s.index[i]][j] += s.rows[s.index[%d]][j]
			}
`, first, fixed)
	if r.IntN(2) == 0 {
		b.WriteString("\t\t\ts.val[s.index[i]] = s.sum(s.index[i])\n")
	} else {
		b.WriteString("\t\t\ts.val[s.index[i]] += 1\n")
	}
	b.WriteString("\t\t})\n\t}\n\twg.Wait()\n}\n\n")

	intIndex := r.IntN(2) == 0 // counts and index of one type: the index must be a root apart
	cnt := "float64"
	if intIndex {
		cnt = "int"
	}
	fmt.Fprintf(&b, `func count(c []%s, idx []int) {
	var wg sync.WaitGroup
	for i := range idx {
		wg.Go(func() {
			c[idx[i]] += 1
		})
	}
	wg.Wait()
}

`, cnt)

	b.WriteString(`func assemble(y []float64, elemNode [][3]int, byColour [][]int, chunks int) {
	for _, elems := range byColour {
		var wg sync.WaitGroup
		for c := range chunks {
			wg.Go(func() {
				for _, e := range elems[c*len(elems)/chunks : (c+1)*len(elems)/chunks] {
					en := &elemNode[e]
					for k := range 3 {
						y[en[k]] += 1
					}
				}
			})
		}
		wg.Wait()
	}
}

// planted: every iteration writes a[0].
func planted(a []float64) {
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			a[0] = float64(i)
		})
	}
	wg.Wait()
}

`)
	n := 3 + r.IntN(3)
	fmt.Fprintf(&b, "func main() {\n\t%s\n", oneP)
	fmt.Fprintf(&b, "\ts := &simplex{val: make([]float64, %d), index: %s}\n", n, goInts(indexArray(r, n)))
	fmt.Fprintf(&b, "\tfor range %d {\n\t\ts.rows = append(s.rows, make([]float64, 2))\n\t}\n", n)
	if r.IntN(4) == 0 {
		b.WriteString("\ts.rows[1] = s.rows[0]\n") // rows sharing an array: the guard fails
	}
	b.WriteString("\ts.move()\n")
	fmt.Fprintf(&b, "\tc := make([]%s, %d)\n\tcount(c, %s)\n", cnt, n, goInts(indexArray(r, n)))

	nodes := 6 + r.IntN(4)
	elems := 2 + r.IntN(4)
	var en []string
	for range elems {
		p := r.Perm(nodes)
		en = append(en, fmt.Sprintf("{%d, %d, %d}", p[0], p[1], p[2]))
	}
	var colours []string
	for k := 0; k < elems; {
		size := 1 + r.IntN(elems-k)
		var ids []int
		for e := k; e < k+size; e++ {
			ids = append(ids, e)
		}
		colours = append(colours, goInts(ids))
		k += size
	}
	fmt.Fprintf(&b, "\ty := make([]float64, %d)\n", nodes)
	fmt.Fprintf(&b, "\tassemble(y, [][3]int{%s}, [][]int{%s}, %d)\n", strings.Join(en, ", "), strings.Join(colours, ", "), 1+r.IntN(3))
	b.WriteString("\ta := make([]float64, 1)\n\tplanted(a)\n")
	b.WriteString("\tfmt.Println(s.val, c, y, a)\n}\n")
	return b.String()
}

// indexArray is a permutation of [0, n), with a value repeated half of
// the time.
func indexArray(r *rand.Rand, n int) []int {
	p := r.Perm(n)
	if r.IntN(2) == 0 {
		p[r.IntN(n)] = p[r.IntN(n)]
	}
	return p
}

func goInts(xs []int) string {
	s := make([]string, len(xs))
	for k, x := range xs {
		s[k] = fmt.Sprint(x)
	}
	return "[]int{" + strings.Join(s, ", ") + "}"
}
