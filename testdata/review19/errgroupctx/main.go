// errgroup.WithContext: a pipeline of a producer, parallel mappers and a
// collector in one group, the first error cancelling the rest; results
// written per index and read after Wait; a SetLimit'ed group; the
// context's Done observed in a select. Correct: go run -race is silent.
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

type doc struct {
	id    int
	words []string
	score float64
}

var errBad = errors.New("bad doc")

func pipeline(ctx context.Context, n, failAt int) ([]*doc, error) {
	g, ctx := errgroup.WithContext(ctx)
	in := make(chan *doc)
	out := make(chan *doc)
	g.Go(func() error {
		defer close(in)
		for i := 0; i < n; i++ {
			d := &doc{id: i, words: []string{"a", "b"}}
			select {
			case in <- d:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	var mappers sync.WaitGroup
	for w := 0; w < 3; w++ {
		mappers.Add(1)
		g.Go(func() error {
			defer mappers.Done()
			for d := range in {
				if d.id == failAt {
					return errBad
				}
				d.score = float64(len(d.words) * d.id)
				select {
				case out <- d:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return nil
		})
	}
	g.Go(func() error { mappers.Wait(); close(out); return nil })
	var res []*doc
	g.Go(func() error {
		for d := range out {
			res = append(res, d)
		}
		return nil
	})
	err := g.Wait()
	return res, err
}

func main() {
	res, err := pipeline(context.Background(), 30, -1)
	total := 0.0
	for _, d := range res {
		total += d.score
	}
	fmt.Println(len(res), total, err)
	_, err = pipeline(context.Background(), 30, 7)
	fmt.Println(err)

	var g errgroup.Group
	g.SetLimit(2)
	sq := make([]int, 10)
	for i := range sq {
		g.Go(func() error { sq[i] = i * i; return nil })
	}
	_ = g.Wait()
	fmt.Println(sq)
}
