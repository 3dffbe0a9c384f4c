package main

import (
	"fmt"
	"sync"
)

// sections declares n between its forks and uses it after the join: in a
// dormant build the rest of the body goes into both branches.
func sections(a []int) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a[0] = 1
	}()
	n := len(a)
	wg.Add(1)
	go func() {
		defer wg.Done()
		a[n-1] = 2
	}()
	wg.Wait()
	fmt.Println(a, n)
}

// labeled breaks out of its forking loop by a label, which the plain copy
// renames.
func labeled(a []int, idx []int) {
	var wg sync.WaitGroup
outer:
	for i := range idx {
		if i == 3 {
			break outer
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[idx[i]] += i
		}()
	}
	wg.Wait()
}

func main() {
	a := make([]int, 4)
	sections(a)
	labeled(a, []int{0, 1, 2, 3})
	fmt.Println(a)
}
