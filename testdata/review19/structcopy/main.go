// Copies of mutex-holding structs (go vet's copylocks would complain; the
// program is still correct): a value receiver method copying the struct,
// a slice of structs each with its own mutex, a struct copied before any
// goroutine starts and then guarded by its own copy's mutex. Correct:
// go run -race is silent.
package main

import (
	"fmt"
	"sync"
)

type account struct {
	mu      sync.Mutex
	balance int
	history []int
}

func (a *account) deposit(v int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += v
	a.history = append(a.history, v)
}

func snapshot(a account) int { return a.balance + len(a.history) } // a copy, made under the lock by the caller

type stats struct {
	sync.RWMutex
	counts map[string]int
}

func main() {
	accts := make([]account, 4)
	tmpl := account{balance: 100}
	var wg sync.WaitGroup
	for i := range accts {
		accts[i] = tmpl
		accts[i].history = nil
	}
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				accts[(g+k)%4].deposit(k)
			}
		}()
	}
	var st stats
	st.counts = map[string]int{}
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.Lock()
			st.counts[fmt.Sprint(g%2)]++
			st.Unlock()
			st.RLock()
			_ = st.counts["0"]
			st.RUnlock()
		}()
	}
	wg.Wait()
	total := 0
	for i := range accts {
		accts[i].mu.Lock()
		total += snapshot(accts[i])
		accts[i].mu.Unlock()
	}
	fmt.Println(total, st.counts["0"]+st.counts["1"])
}
