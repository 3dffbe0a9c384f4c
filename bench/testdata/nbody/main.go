// Command nbody is the all-pairs gravitational kernel: -n bodies, -steps
// leapfrog steps. Each step computes the accelerations in a parallel loop
// over blocks of bodies run by errgroup (g.Go per block of -block bodies),
// each goroutine reading every position and writing the accelerations of
// its own bodies, then moves the bodies in a second parallel loop. It
// prints a checksum.
//
// RACY VARIANT, for differential tests: the advance step's blocks move one
// body of the next block too (off-by-one upper bound), a race on vel and
// pos.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"math"

	"golang.org/x/sync/errgroup"
)

type vec struct{ x, y, z float64 }

type system struct {
	pos, vel, acc []vec
	mass          []float64
}

func newSystem(n int) *system {
	s := &system{pos: make([]vec, n), vel: make([]vec, n), acc: make([]vec, n), mass: make([]float64, n)}
	for i := range n {
		t := float64(i)
		r := 1 + float64(i%97)/97
		s.pos[i] = vec{r * math.Cos(t*0.618), r * math.Sin(t*0.618), float64(i%13)/13 - 0.5}
		s.vel[i] = vec{-0.3 * math.Sin(t*0.618), 0.3 * math.Cos(t*0.618), 0}
		s.mass[i] = 1 / float64(n) * (1 + float64(i%7)/7)
	}
	return s
}

// accelerations sets acc from pos, in blocks of block bodies.
func (s *system) accelerations(block int) {
	var g errgroup.Group
	for lo := 0; lo < len(s.pos); lo += block {
		g.Go(func() error {
			for i := lo; i < min(lo+block, len(s.pos)); i++ {
				var a vec
				pi := s.pos[i]
				for j, pj := range s.pos {
					dx, dy, dz := pj.x-pi.x, pj.y-pi.y, pj.z-pi.z
					d2 := dx*dx + dy*dy + dz*dz + 1e-4
					f := s.mass[j] / (d2 * math.Sqrt(d2))
					a.x += f * dx
					a.y += f * dy
					a.z += f * dz
				}
				s.acc[i] = a
			}
			return nil
		})
	}
	g.Wait()
}

// advance moves every body by dt, in blocks of block bodies.
func (s *system) advance(dt float64, block int) {
	var g errgroup.Group
	for lo := 0; lo < len(s.pos); lo += block {
		g.Go(func() error {
			for i := lo; i < min(lo+block+1, len(s.pos)); i++ { // planted race: one body too far
				s.vel[i].x += dt * s.acc[i].x
				s.vel[i].y += dt * s.acc[i].y
				s.vel[i].z += dt * s.acc[i].z
				s.pos[i].x += dt * s.vel[i].x
				s.pos[i].y += dt * s.vel[i].y
				s.pos[i].z += dt * s.vel[i].z
			}
			return nil
		})
	}
	g.Wait()
}

func main() {
	n := flag.Int("n", 3500, "bodies")
	steps := flag.Int("steps", 10, "steps")
	block := flag.Int("block", 64, "bodies per goroutine")
	flag.Parse()
	s := newSystem(*n)
	for range *steps {
		s.accelerations(*block)
		s.advance(1e-3, *block)
	}
	var px, kin float64
	for i, p := range s.pos {
		px += p.x + 2*p.y + 3*p.z
		v := s.vel[i]
		kin += 0.5 * s.mass[i] * (v.x*v.x + v.y*v.y + v.z*v.z)
	}
	fmt.Printf("nbody n=%d steps=%d: position sum %.6e, kinetic energy %.6e\n", *n, *steps, px, kin)
}
