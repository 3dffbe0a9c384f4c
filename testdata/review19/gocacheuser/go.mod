module review19/gocacheuser

go 1.26

require github.com/patrickmn/go-cache v2.1.0+incompatible
