return math.random(1000000)
