// Command clean assembles the load vector and the stiffness matrix diagonal
// of a linear finite-element discretisation of -Δu = f on a (deformed) unit
// square meshed with triangles. It is the version with a planted race;
// ../clean is the race-free version.
//
// Assembly goes from elements to nodes through the element-to-node index
// array:
//
//	global[elemNode[e][k]] += local[k]
//
// Neighbouring elements share nodes, so an element loop is parallel only if
// no two concurrent elements share one. This program uses both standard
// ways to make it so: the load vector is assembled by colours (elements of a
// colour share no node; one parallel loop per colour, the colours in
// sequence). The diagonal was meant to be assembled in a chunked loop into
// private vectors, but here the private vectors were "optimised" away: the
// un-coloured chunked loop adds straight into the shared vector (see
// assembleDiag), and elements on both sides of a strip boundary write the
// same nodes.
package main

import (
	"flag"
	"fmt"
	"math"
	"sync"

	"golang.org/x/sync/errgroup"
)

// mesh is a triangulation: node coordinates and the element-to-node array.
type mesh struct {
	x, y     []float64
	elemNode [][3]int
}

// newMesh triangulates the unit square with nx×ny cells of two triangles
// each, numbered row by row, and deforms it smoothly so that elements differ.
func newMesh(nx, ny int) *mesh {
	m := &mesh{}
	for j := range ny + 1 {
		for i := range nx + 1 {
			u, v := float64(i)/float64(nx), float64(j)/float64(ny)
			d := 0.1 * math.Sin(math.Pi*u) * math.Sin(math.Pi*v)
			m.x = append(m.x, u+d)
			m.y = append(m.y, v+d/2)
		}
	}
	node := func(i, j int) int { return j*(nx+1) + i }
	for j := range ny {
		for i := range nx {
			a, b, c, d := node(i, j), node(i+1, j), node(i+1, j+1), node(i, j+1)
			m.elemNode = append(m.elemNode, [3]int{a, b, c}, [3]int{a, c, d})
		}
	}
	return m
}

// geometry returns the area of element e and the gradients of its three
// linear shape functions.
func (m *mesh) geometry(e int) (area float64, gx, gy [3]float64) {
	n := m.elemNode[e]
	x0, y0 := m.x[n[0]], m.y[n[0]]
	x1, y1 := m.x[n[1]], m.y[n[1]]
	x2, y2 := m.x[n[2]], m.y[n[2]]
	det := (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0)
	gx = [3]float64{(y1 - y2) / det, (y2 - y0) / det, (y0 - y1) / det}
	gy = [3]float64{(x2 - x1) / det, (x0 - x2) / det, (x1 - x0) / det}
	return det / 2, gx, gy
}

// source is f for the exact solution sin(πx)·sin(πy).
func source(x, y float64) float64 {
	return 2 * math.Pi * math.Pi * math.Sin(math.Pi*x) * math.Sin(math.Pi*y)
}

// loadVector is element e's contribution to the load vector (one-point
// quadrature at the centroid).
func (m *mesh) loadVector(e int) [3]float64 {
	n := m.elemNode[e]
	area, _, _ := m.geometry(e)
	cx := (m.x[n[0]] + m.x[n[1]] + m.x[n[2]]) / 3
	cy := (m.y[n[0]] + m.y[n[1]] + m.y[n[2]]) / 3
	v := area * source(cx, cy) / 3
	return [3]float64{v, v, v}
}

// stiffnessDiag is the diagonal of element e's stiffness matrix.
func (m *mesh) stiffnessDiag(e int) [3]float64 {
	area, gx, gy := m.geometry(e)
	var d [3]float64
	for k := range 3 {
		d[k] = area * (gx[k]*gx[k] + gy[k]*gy[k])
	}
	return d
}

// colour partitions the elements greedily so that elements of one colour
// share no node, and returns the elements of each colour in order.
func (m *mesh) colour() [][]int {
	nodeElems := make([][]int, len(m.x))
	for e, n := range m.elemNode {
		for _, v := range n {
			nodeElems[v] = append(nodeElems[v], e)
		}
	}
	colourOf := make([]int, len(m.elemNode))
	var byColour [][]int
	for e, n := range m.elemNode {
		used := map[int]bool{}
		for _, v := range n {
			for _, o := range nodeElems[v] {
				if o < e {
					used[colourOf[o]] = true
				}
			}
		}
		c := 0
		for used[c] {
			c++
		}
		colourOf[e] = c
		if c == len(byColour) {
			byColour = append(byColour, nil)
		}
		byColour[c] = append(byColour[c], e)
	}
	return byColour
}

// assembleLoad assembles the load vector colour by colour, one goroutine
// per element of a colour.
func (m *mesh) assembleLoad(byColour [][]int) []float64 {
	load := make([]float64, len(m.x))
	for _, elems := range byColour {
		var g errgroup.Group
		for _, e := range elems {
			g.Go(func() error {
				local := m.loadVector(e)
				for k := range 3 {
					load[m.elemNode[e][k]] += local[k]
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			panic(err)
		}
	}
	return load
}

// assembleDiag assembles the stiffness diagonal in a chunked loop: each of
// chunks goroutines takes a contiguous range of elements (a strip of the
// mesh, bottom row first) and adds into the shared vector.
//
// The planted race: the nodes on the line between strip c and strip c+1
// belong to elements of both, so goroutines c and c+1 both do
// diag[n] += … on them, unordered. Goroutine c reaches those nodes at the
// end of its strip and goroutine c+1 at the start of its strip, so losing an
// update needs one goroutine to start exactly as the other ends: the race is
// certain, a wrong sum practically never happens, and the output is that of
// ../clean except possibly in the last printed digit (the order of the two
// sides' additions on the boundary nodes depends on the schedule).
func (m *mesh) assembleDiag(chunks int) []float64 {
	ne := len(m.elemNode)
	diag := make([]float64, len(m.x))
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			for e := c * ne / chunks; e < (c+1)*ne/chunks; e++ {
				local := m.stiffnessDiag(e)
				for k := range 3 {
					diag[m.elemNode[e][k]] += local[k]
				}
			}
		})
	}
	wg.Wait()
	return diag
}

// checksum is Σ v[i] and Σ (i mod 7)·v[i].
func checksum(v []float64) (sum, weighted float64) {
	for i, x := range v {
		sum += x
		weighted += float64(i%7) * x
	}
	return sum, weighted
}

func main() {
	nx := flag.Int("nx", 60, "cells in x")
	ny := flag.Int("ny", 60, "cells in y")
	chunks := flag.Int("chunks", 2, "goroutines in the chunked loop")
	flag.Parse()

	m := newMesh(*nx, *ny)
	byColour := m.colour()
	load := m.assembleLoad(byColour)
	diag := m.assembleDiag(*chunks)

	fmt.Printf("mesh %d nodes, %d elements, %d colours\n", len(m.x), len(m.elemNode), len(byColour))
	s, w := checksum(load)
	fmt.Printf("load vector: sum %.9g, weighted %.9g\n", s, w)
	s, w = checksum(diag)
	fmt.Printf("stiffness diagonal: sum %.9g, weighted %.9g\n", s, w)
}
