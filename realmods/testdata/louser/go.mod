module example.com/louser

go 1.22

require github.com/samber/lo v1.53.0
