package main

import "sync"

func main() {
	m := make([][]int, 3)
	for i := range m {
		m[i] = make([]int, 3)
	}
	var outer sync.WaitGroup
	for i := range 3 {
		outer.Go(func() {
			var inner sync.WaitGroup
			for j := range 3 {
				inner.Go(func() {
					m[i][j] = i + j
					if i > 0 {
						m[i-1][j] = 0
					}
				})
			}
			inner.Wait()
		})
	}
	outer.Wait()
	println(m[2][2])
}
