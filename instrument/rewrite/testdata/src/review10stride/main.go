package main

import (
	"fmt"
	"math"
	"sync"
)

// Review of the strided, inclusive and point moves of check coalescing:
// kernels whose pruned build must report exactly what the element-wise
// conservative build reports. Rows are chosen through (i*3)%n, a formula
// the static stage does not invert, so the accesses stay checked.

// gather: row r of dst gets column r of src (a strided read beside a run
// write). Given two views of one backing array, the column crosses the
// rows other goroutines write: a race the run-time apartness test must
// keep checked.
func gather(dst, src []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for k := 0; k < n; k++ {
				dst[r*n+k] = src[k*n+r]
			}
		})
	}
	wg.Wait()
}

// scatter: column r of dst gets row r of src (a strided write beside a
// run read); in place (dst and src one matrix) a race.
func scatter(dst, src []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for k := 0; k < n; k++ {
				dst[k*n+r] = src[r*n+k] + 1
			}
		})
	}
	wg.Wait()
}

// backward: a column walked with a negative coefficient known only at
// run time (m = -n), under a continue.
func backward(out, A, B []float64, n, m int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			s := 0.0
			for k := 0; k < n; k++ {
				if A[r*n+k] < 0 {
					continue
				}
				s += A[r*n+k] * B[k*m+(n*n-n)+r]
			}
			out[r] = s
		})
	}
	wg.Wait()
}

// zero: a coefficient that is 0 at run time reads one element of B in
// every iteration, the element goroutine r writes.
func zero(out, A, B []float64, n, z int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			s := 0.0
			for k := 0; k < n; k++ {
				s += A[r*n+k] * B[k*z+(r+1)%n]
			}
			B[r] = s
			out[r] = s
		})
	}
	wg.Wait()
}

// incl: an inclusive loop to a bound from the caller, a strided read and
// a vector entry y[c] beside the run.
func incl(out, A, y []float64, n, last, c int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			s := 0.0
			for k := 0; k <= last; k++ {
				s += A[r*n+k] * y[c]
			}
			out[r*n+c] = s
		})
	}
	wg.Wait()
}

// entryWritten: the entry y[c] is written in every iteration beside a
// run read of the same matrix.
func entryWritten(M []float64, n, c int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for k := 0; k < n; k++ {
				M[c] += M[r*n+k]
			}
		})
	}
	wg.Wait()
}

// forever: a loop to the constant bound math.MaxInt, which only a panic
// ends, must still compile: j <= hi is coalesced as j < hi+1, and
// math.MaxInt+1 is a constant that overflows int. A constant bound that
// large refuses. (Not run: stop is 0.)
func forever(A []float64, n, stop int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			s := 0.0
			if stop > 0 {
				for j := 0; j <= math.MaxInt; j++ {
					s += A[r*n+j]
				}
			}
			A[r] = s
		})
	}
	wg.Wait()
}

func main() {
	n := 6
	A, B, out := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range A {
		A[i], B[i] = float64(i%5), float64(i%3)
	}
	gather(out, A, n)              // apart: clean
	gather(A[:n*n], A[0:], n)      // one matrix through two headers: a race
	scatter(out, B, n)             // apart: clean
	scatter(B[1:], B[:n*n-1], n-1) // overlapping views: a race
	backward(out[:n], A, B, n, -n) // clean
	zero(out[:n], A, B, n, 0)      // B[(r+1)%n] read by r, written by r+1: a race
	incl(out, A, B[:n], n, n-1, 2) // clean
	incl(out, A, out[n:], n, n-1, 2)
	entryWritten(A, n, 2) // a race on A[2] (written by all), and rows read
	forever(out, n, 0)
	fmt.Println(len(out)) // the values are the races' (scatter over overlapping views): TestGolden compares the plain and checked output
}
