// Command covariance is PolyBench/C 4.2's covariance, the m×m covariance
// matrix of n samples of m variables, ported to Go with [][]float64
// matrices (data n×m, cov m×m), each row made on its own. Three parallel
// loops: the column means over blocks of -bs columns (mean[lo:hi]), the
// centring over blocks of -bs rows, and the upper triangle of cov one
// goroutine per row i, each writing cov[i][j] and its mirror cov[j][i] for
// j ≥ i. It prints a checksum of cov.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// covariance sets cov from data, centring data in place.
func covariance(bs int, data, cov [][]float64, mean []float64) {
	m, n := len(mean), len(data)
	fn := float64(n)
	var wg sync.WaitGroup
	for b := 0; b*bs < m; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, m)
			dst := mean[lo:hi]
			clear(dst)
			for _, row := range data {
				for k, v := range row[lo:hi] {
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
			for _, row := range data[lo:hi] {
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
				for _, row := range data {
					c += row[i] * row[j]
				}
				c /= fn - 1
				cov[i][j] = c
				cov[j][i] = c
			}
		})
	}
	wg.Wait()
}

// newMatrix returns a rows×cols matrix of zeros.
func newMatrix(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
	}
	return m
}

// initArray fills data as PolyBench's init_array does.
func initArray(m, n int) [][]float64 {
	data := newMatrix(n, m)
	for i := range n {
		for j := range m {
			data[i][j] = float64(i*j) / float64(m)
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
	cov, mean := newMatrix(*m, *m), make([]float64, *m)
	covariance(*bs, data, cov, mean)
	sum := 0.0
	for _, row := range cov {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("covariance %dx%d: sum %.9e, cov[last] %.9e\n", *m, *n, sum, cov[*m-1][*m-1])
}
