// Command fem is the finite-element kernel: -iters damped Jacobi iterations
// for -Δu = 1 with u = 0 on the boundary, linear triangles on an -n×-n
// grid, the stiffness operator applied matrix-free element by element
// through the element-to-node index array:
//
//	y[elemNode[e][k]] += Ke[e][k][l] * x[elemNode[e][l]]
//
// Elements are coloured so that elements of one colour share no node; each
// colour is a chunked parallel loop (-chunks goroutines, default
// 2×GOMAXPROCS, over the colour's elements), the colours in sequence. The
// node update is a parallel loop over ranges of nodes. It prints a checksum.
//
// RACY VARIANT, for differential tests: the node update's ranges reach one
// node into the next range (off-by-one upper bound), a race on u.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

type mesh struct {
	nodes    int
	elemNode [][3]int
	ke       [][3][3]float64 // element stiffness matrices
	boundary []bool
	byColour [][]int
}

func newMesh(n int) *mesh {
	m := &mesh{nodes: (n + 1) * (n + 1), boundary: make([]bool, (n+1)*(n+1))}
	node := func(i, j int) int { return j*(n+1) + i }
	for j := range n + 1 {
		for i := range n + 1 {
			m.boundary[node(i, j)] = i == 0 || j == 0 || i == n || j == n
		}
	}
	// On a right-angled triangle with legs h the stiffness matrix does not
	// depend on h; the two orientations share it up to node order.
	k := [3][3]float64{{0.5, -0.5, 0}, {-0.5, 1, -0.5}, {0, -0.5, 0.5}}
	for j := range n {
		for i := range n {
			a, b, c, d := node(i, j), node(i+1, j), node(i+1, j+1), node(i, j+1)
			m.elemNode = append(m.elemNode, [3]int{a, b, c}, [3]int{c, d, a})
			m.ke = append(m.ke, k, k)
		}
	}
	m.colour()
	return m
}

// colour partitions the elements greedily so that elements of one colour
// share no node.
func (m *mesh) colour() {
	lastColourAt := make([][]int, m.nodes) // colours already used at each node
	for e, en := range m.elemNode {
		c := 0
	search:
		for {
			for _, v := range en {
				for _, u := range lastColourAt[v] {
					if u == c {
						c++
						continue search
					}
				}
			}
			break
		}
		for _, v := range en {
			lastColourAt[v] = append(lastColourAt[v], c)
		}
		if c == len(m.byColour) {
			m.byColour = append(m.byColour, nil)
		}
		m.byColour[c] = append(m.byColour[c], e)
	}
}

// apply sets y = K·x, colour by colour.
func (m *mesh) apply(y, x []float64, chunks int) {
	clear(y)
	for _, elems := range m.byColour {
		var wg sync.WaitGroup
		for c := range chunks {
			wg.Go(func() {
				for _, e := range elems[c*len(elems)/chunks : (c+1)*len(elems)/chunks] {
					en, ke := &m.elemNode[e], &m.ke[e]
					for k := range 3 {
						s := 0.0
						for l := range 3 {
							s += ke[k][l] * x[en[l]]
						}
						y[en[k]] += s
					}
				}
			})
		}
		wg.Wait()
	}
}

// relax sets u += ω·(b - y)/diag on interior nodes, in parallel ranges.
func (m *mesh) relax(u, y, diag []float64, b float64, chunks int) {
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			for i := c * m.nodes / chunks; i < min((c+1)*m.nodes/chunks+1, m.nodes); i++ { // planted race: one node too far
				if !m.boundary[i] {
					u[i] += 2.0 / 3 * (b - y[i]) / diag[i]
				}
			}
		})
	}
	wg.Wait()
}

func main() {
	n := flag.Int("n", 256, "cells per side")
	iters := flag.Int("iters", 75, "Jacobi iterations")
	chunks := flag.Int("chunks", 2*runtime.GOMAXPROCS(0), "goroutines per parallel loop")
	flag.Parse()
	m := newMesh(*n)
	h := 1 / float64(*n)
	u, y, diag := make([]float64, m.nodes), make([]float64, m.nodes), make([]float64, m.nodes)
	for e, en := range m.elemNode {
		for k := range 3 {
			diag[en[k]] += m.ke[e][k][k]
		}
	}
	for range *iters {
		m.apply(y, u, *chunks)
		m.relax(u, y, diag, h*h, *chunks)
	}
	sum := 0.0
	for _, v := range u {
		sum += v
	}
	fmt.Printf("fem n=%d iters=%d: %d colours, sum %.6e, centre %.6e\n", *n, *iters, len(m.byColour), sum*h*h, u[m.nodes/2])
}
