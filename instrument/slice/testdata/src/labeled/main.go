// A labeled simple statement (soundfuzz's exit/goto family): it stays
// whole, so the variables it reads and writes keep their declarations.
package main

import "sync"

func main() {
	t := 0
	a := make([]int, 10)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Go(func() { a[3*i+2] = 1 })
		if i == 2 {
			goto done
		}
	}
	wg.Wait()
done:
	t += a[1]
	wg.Wait()
	_ = t
}
