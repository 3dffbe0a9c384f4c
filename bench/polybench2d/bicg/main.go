// Command bicg is PolyBench/C 4.2's bicg, the BiCG sub-kernel s := Aᵀ·r,
// q := A·p, ported to Go with a [][]float64 matrix A (n×m), its rows cut
// from one backing array. The rows of A are split among -workers
// goroutines run by an errgroup: each writes q[i] for its own rows through
// q[lo:hi] and sums its part of s into partial[w]; the partial sums are
// added after g.Wait. -reps repeats the kernel. It prints a checksum of s
// and q.
package main

import (
	"flag"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// bicg sets s to Aᵀ·r and q to A·p, the rows split among workers.
func bicg(workers int, A [][]float64, p, r, s, q []float64) {
	n, m := len(A), len(s)
	partial := make([][]float64, workers)
	var g errgroup.Group
	for w := range workers {
		g.Go(func() error {
			lo, hi := w*n/workers, (w+1)*n/workers
			ps := make([]float64, m)
			dst := q[lo:hi]
			for k := range dst {
				i := lo + k
				qi := 0.0
				for j, a := range A[i] {
					ps[j] += r[i] * a
					qi += a * p[j]
				}
				dst[k] = qi
			}
			partial[w] = ps
			return nil
		})
	}
	g.Wait()
	clear(s)
	for _, ps := range partial {
		for j, v := range ps {
			s[j] += v
		}
	}
}

// newMatrix returns a rows×cols matrix of zeros, its rows cut from one
// allocation.
func newMatrix(rows, cols int) [][]float64 {
	data := make([]float64, rows*cols)
	m := make([][]float64, rows)
	for i := range m {
		m[i] = data[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return m
}

// initArrays fills A, p and r as PolyBench's init_array does.
func initArrays(n, m int) (A [][]float64, p, r []float64) {
	A, p, r = newMatrix(n, m), make([]float64, m), make([]float64, n)
	for j := range m {
		p[j] = float64(j%m) / float64(m)
	}
	for i := range n {
		r[i] = float64(i%n) / float64(n)
		for j := range m {
			A[i][j] = float64(i*(j+1)%n) / float64(n)
		}
	}
	return A, p, r
}

func main() {
	n := flag.Int("n", 2100, "rows of A")
	m := flag.Int("m", 1900, "columns of A")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines")
	reps := flag.Int("reps", 100, "times the kernel runs")
	flag.Parse()
	A, p, r := initArrays(*n, *m)
	s, q := make([]float64, *m), make([]float64, *n)
	for range *reps {
		bicg(*workers, A, p, r, s, q)
	}
	ss, sq := 0.0, 0.0
	for _, v := range s {
		ss += v
	}
	for _, v := range q {
		sq += v
	}
	fmt.Printf("bicg %dx%d: sum s %.9e, sum q %.9e\n", *n, *m, ss, sq)
}
