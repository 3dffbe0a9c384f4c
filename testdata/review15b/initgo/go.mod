module example.com/initgo

go 1.25
