// Command covariance is PolyBench/C 4.2's covariance, the m×m covariance
// matrix of n samples of m variables, ported to Go with flat []float64
// matrices (data n×m, cov m×m). Three parallel loops: the column means
// over blocks of -bs columns (mean[lo:hi]), the centring over blocks of
// -bs rows, and the upper triangle of cov one goroutine per row i, each
// writing cov[i][j] and its mirror cov[j][i] for j ≥ i. It prints a
// checksum of cov.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// covariance sets cov from data, centring data in place.
func covariance(m, n, bs int, data, cov, mean []float64) {
	fn := float64(n)
	var wg sync.WaitGroup
	for b := 0; b*bs < m; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, m)
			dst := mean[lo:hi]
			clear(dst)
			for i := range n {
				for k, v := range data[i*m+lo : i*m+hi] {
					dst[k] += v
				}
			}
			for k := range dst {
				dst[k] /= fn
			}
		})
	}
	wg.Wait()
	for b := 0; b*bs < n; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n)
			for i := lo; i < hi; i++ {
				row := data[i*m : (i+1)*m]
				for j := range row {
					row[j] -= mean[j]
				}
			}
		})
	}
	wg.Wait()
	for i := range m {
		wg.Go(func() {
			for j := i; j < m; j++ {
				c := 0.0
				for k := range n {
					c += data[k*m+i] * data[k*m+j]
				}
				c /= fn - 1
				cov[i*m+j] = c
				cov[j*m+i] = c
			}
		})
	}
	wg.Wait()
}

// initArray fills data as PolyBench's init_array does.
func initArray(m, n int) []float64 {
	data := make([]float64, n*m)
	for i := range n {
		for j := range m {
			data[i*m+j] = float64(i*j) / float64(m)
		}
	}
	return data
}

func main() {
	m := flag.Int("m", 840, "variables")
	n := flag.Int("n", 1000, "samples")
	bs := flag.Int("bs", 32, "columns or rows per goroutine")
	flag.Parse()
	data := initArray(*m, *n)
	cov, mean := make([]float64, *m**m), make([]float64, *m)
	covariance(*m, *n, *bs, data, cov, mean)
	sum := 0.0
	for _, v := range cov {
		sum += v
	}
	fmt.Printf("covariance %dx%d: sum %.9e, cov[last] %.9e\n", *m, *n, sum, cov[len(cov)-1])
}
