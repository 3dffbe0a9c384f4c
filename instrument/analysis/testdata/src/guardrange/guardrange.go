package guardrange

import "sync"

// lu reads the pivot row urow, a slice of A, while the rows below it are
// written: urow is guarded up to its len against the hull of A's rows.
func lu(n, workers int, A []float64) {
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		urow := A[k*n+k+1 : (k+1)*n]
		rows := n - k - 1
		nw := min(workers, rows)
		for w := range nw { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				lo, hi := k+1+w*rows/nw, k+1+(w+1)*rows/nw // want `k: private: no other goroutine writes k` `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `nw: read\-only: nothing writes nw while the construct runs` `k: private: no other goroutine writes k` `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `nw: read\-only: nothing writes nw while the construct runs`
				for i := lo; i < hi; i++ {
					r := A[i*n : (i+1)*n]    // want `A: read\-only: nothing writes A while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
					l := r[k]                // want `r\[k\]: independent: each iteration touches its own elements of A \(when A\[n \* \(k \+ 1 \+ 0 \* rows / nw\):n \* \(k \+ 1 \+ nw \* rows / nw\)\] is apart from urow up to its len and the written range of A is within its bounds and the chunk bounds from lo do not overflow and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k`
					for j, u := range urow { // want `u: read\-only: nothing in the construct writes urow \(when urow up to its len is apart from A\[n \* \(k \+ 1 \+ 0 \* rows / nw\):n \* \(k \+ 1 \+ nw \* rows / nw\)\]\)` `urow: read\-only: nothing writes urow while the construct runs`
						r[k+1+j] -= l * u // want `r\[k \+ 1 \+ j\]: independent: each iteration touches its own elements of A \(when A\[n \* \(k \+ 1 \+ 0 \* rows / nw\):n \* \(k \+ 1 \+ nw \* rows / nw\)\] is apart from urow up to its len and the written range of A is within its bounds and the chunk bounds from lo do not overflow and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k`
					}
				}
			})
		}
		wg.Wait()
	}
}

// perRow is the same with a goroutine per row: the index's band.
func perRow(n int, A []float64) {
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		urow := A[k*n+k+1 : (k+1)*n]
		for i := k + 1; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				r := A[i*n : (i+1)*n]    // want `A: read\-only: nothing writes A while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
				l := r[k]                // want `r\[k\]: independent: each iteration touches its own elements of A \(when A\[k \* n \+ n:n \* n\] is apart from urow up to its len and the written range of A is within its bounds and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k`
				for j, u := range urow { // want `u: read\-only: nothing in the construct writes urow \(when urow up to its len is apart from A\[k \* n \+ n:n \* n\]\)` `urow: read\-only: nothing writes urow while the construct runs`
					r[k+1+j] -= l * u // want `r\[k \+ 1 \+ j\]: independent: each iteration touches its own elements of A \(when A\[k \* n \+ n:n \* n\] is apart from urow up to its len and the written range of A is within its bounds and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k`
				}
			})
		}
		wg.Wait()
	}
}

// beyondLen reads urow resliced past its len: its span stays up to cap,
// and the whole-array guard is kept.
func beyondLen(n, workers int, A []float64) {
	var wg sync.WaitGroup
	for k := 0; k < n-1; k++ {
		urow := A[k*n+k+1 : (k+1)*n]
		rows := n - k - 1
		nw := min(workers, rows)
		for w := range nw { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				lo, hi := k+1+w*rows/nw, k+1+(w+1)*rows/nw // want `k: private: no other goroutine writes k` `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `nw: read\-only: nothing writes nw while the construct runs` `k: private: no other goroutine writes k` `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `nw: read\-only: nothing writes nw while the construct runs`
				ext := urow[:len(urow)+n]                  // want `urow: read\-only: nothing writes urow while the construct runs` `urow: read\-only: nothing writes urow while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for i := lo; i < hi; i++ {
					r := A[i*n : (i+1)*n] // want `A: read\-only: nothing writes A while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
					l := r[k]             // want `r\[k\]: independent: each iteration touches its own elements of A \(when it is apart from urow and the chunk bounds from lo do not overflow and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k`
					for j := range urow { // want `urow: read\-only: nothing writes urow while the construct runs`
						r[k+1+j] -= l * ext[j+n] // want `r\[k \+ 1 \+ j\]: independent: each iteration touches its own elements of A \(when it is apart from urow and the chunk bounds from lo do not overflow and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k` `ext\[j \+ n\]: read\-only: nothing in the construct writes urow \(when it is apart from A\)` `n: read\-only: nothing writes n while the construct runs`
					}
				}
			})
		}
		wg.Wait()
	}
}

// other reads a slice of another array: its guard is as before, whole
// arrays.
func other(n int, A, B []float64) {
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		urow := B[k*n+k+1 : (k+1)*n]
		for i := k + 1; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				r := A[i*n : (i+1)*n]    // want `A: read\-only: nothing writes A while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
				for j, u := range urow { // want `u: read\-only: nothing in the construct writes urow \(when it is apart from A\)` `urow: read\-only: nothing writes urow while the construct runs`
					r[k+1+j] -= u // want `r\[k \+ 1 \+ j\]: independent: each iteration touches its own elements of A \(when it is apart from urow and the iterations' intervals of A are apart and their bounds do not overflow\)` `k: private: no other goroutine writes k`
				}
			})
		}
		wg.Wait()
	}
}
