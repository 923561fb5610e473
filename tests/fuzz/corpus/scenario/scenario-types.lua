return { name = 5, about = {}, protocol = true, clients = "A", duration = -1 }
