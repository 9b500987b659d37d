class Challenge(:
    name = "broken"
