// Package wrapdep has wrapper types of another package than their users:
// WaitGroup has conc's shape, and its facts make its users' loops
// constructs; Leaky calls Done before f returns, and has no facts.
package wrapdep

import (
	"sync"

	"wrapcatch"
)

type WaitGroup struct {
	wg sync.WaitGroup
	pc wrapcatch.Catcher
}

func (h *WaitGroup) Go(f func()) { // want Go:"wrapper go of wrapdep.WaitGroup on field wg"
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.pc.Try(f)
	}()
}

func (h *WaitGroup) Wait() { // want Wait:"wrapper wait of wrapdep.WaitGroup on field wg"
	h.wg.Wait()
	h.pc.Repanic()
}

// Leaky signals Done before f runs: the join would not wait for f.
type Leaky struct{ wg sync.WaitGroup }

func (l *Leaky) Go(f func()) { // want Go:"no wrapper: wrapdep.Leaky is not a wrapper goanomaly can follow: its method Go starts a goroutine that calls Done before its last statement"
	l.wg.Add(1)
	go func() { // want `the goroutine calls Done before its last statement`
		l.wg.Done()
		f()
	}()
}

func (l *Leaky) Wait() { l.wg.Wait() } // want Wait:"synchronizes: waits on a WaitGroup its siblings signal"

// Twice runs f twice, through a function with no fact.
type Twice struct{ wg sync.WaitGroup }

func (t *Twice) Go(f func()) { // want Go:"no wrapper: wrapdep.Twice is not a wrapper goanomaly can follow: its method Go calls wrapcatch.Twice, which may touch memory beyond the wrapper's"
	t.wg.Add(1)
	go func() { // want `goroutine is never joined in the block that starts it`
		defer t.wg.Done()
		wrapcatch.Twice(f)
	}()
}

func (t *Twice) Wait() { t.wg.Wait() } // want Wait:"synchronizes: waits on a WaitGroup its siblings signal"
