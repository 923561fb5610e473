return { name = "x", 
