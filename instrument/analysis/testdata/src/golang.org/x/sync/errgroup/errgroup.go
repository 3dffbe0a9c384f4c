// Package errgroup is a stand-in for golang.org/x/sync/errgroup: the
// analysis knows Group's Go and Wait by their full names.
package errgroup

import "sync"

type Group struct {
	wg  sync.WaitGroup
	err error
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
