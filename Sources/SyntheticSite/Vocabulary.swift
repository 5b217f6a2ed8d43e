/// Words the synthetic catalogue is made of: names, places, services and prose.
/// About one name in twenty is drawn from `accentedNames`; some words carry HTML-special characters.
enum Vocabulary {
    static let firstNames = [
        "Aoife", "Ciara", "Declan", "Eoin", "Fiona", "Gavin", "Hannah", "Ian", "Jack", "Karen", "Liam", "Maeve",
        "Niall", "Orla", "Patrick", "Rachel", "Sean", "Tara", "Una", "Vincent", "Aidan", "Brid", "Colm", "Deirdre",
        "Emma", "Finn", "Grace", "Hugh", "Isabel", "James", "Kevin", "Laura", "Mark", "Nora", "Oisin", "Paula",
    ]
    static let surnames = [
        "Byrne", "Ryan", "O'Brien", "Walsh", "Kelly", "Murphy", "Doyle", "McCarthy", "Gallagher", "Kennedy", "Lynch",
        "Murray", "Quinn", "Moore", "McLoughlin", "Carroll", "Connolly", "Daly", "O'Connell", "Wilson", "Dunne",
        "Brennan", "Burke", "Collins", "Campbell", "Clarke", "Johnston", "Hughes", "Farrell", "Fitzgerald",
    ]
    /// Non-ASCII names, for transliterated slugs and accent-insensitive sorting.
    static let accentedNames = [
        "Siobhán Ó Súilleabháin", "Łukasz Zieliński", "Françoise Leclerc", "João Ferreira", "Rūta Kazlauskienė",
        "Olena Коваленко", "Zofia Wróblewska", "Lucía García Morales", "Máire Ní Bhriain", "Søren Ødegård",
        "Ştefan Işık", "Ánh Nguyễn",
    ]
    static let counties = ["Cork", "Dublin", "Galway", "Kerry"]
    static let languages = ["English", "Irish", "Polish", "Portuguese", "Spanish", "French", "Lithuanian", "Ukrainian", "Romanian"]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let services = [
        "Regular home cleaning", "Deep cleaning", "Oven & hob cleaning", "End-of-tenancy cleaning", "Window cleaning",
        "Carpet shampooing", "Pet-hair removal", "Ironing", "Holiday-home changeovers", "Office cleaning",
        "After-builders clean", "Fridge <defrost> & clean",
    ]
    static let towns = [
        "Galway", "Cork", "Dublin", "Limerick", "Waterford", "Kilkenny", "Sligo", "Athlone", "Tralee", "Killarney",
        "Ennis", "Drogheda", "Dundalk", "Navan", "Wexford", "Carlow", "Tullamore", "Mullingar", "Letterkenny",
        "Castlebar", "Westport", "Clonmel", "Naas", "Bray", "Cobh", "Kinsale", "Dingle", "Clifden", "Oranmore", "Salthill",
    ]
    static let rentalCategories = ["Tools", "Garden", "Camping", "Party"]
    static let conditions = ["New", "Like new", "Good", "Fair"]
    static let rentalItems = [
        "cordless drill", "pressure washer", "hedge trimmer", "lawn mower", "extension ladder", "tile cutter",
        "wallpaper steamer", "four-person tent", "camping stove", "sea kayak", "gazebo", "folding tables",
        "PA speaker", "fondue set", "leaf blower", "chainsaw", "cement mixer", "sleeping bag", "paddle board",
        "projector & screen", "carpet cleaner", "sander", "strimmer", "wheelbarrow",
    ]
    static let adjectives = [
        "Sturdy", "Compact", "Heavy-duty", "Light", "Quiet", "Reliable", "Professional", "Family-size", "Vintage", "Modern",
    ]
    static let sourceKinds = ["book", "play", "poem", "speech", "letter", "essay", "proverb"]
    static let quoteCategories = ["Work", "Home", "Courage", "Kindness", "Time", "Wisdom"]
    static let authors = [
        "William Shakespeare", "George Eliot", "Seneca", "Mark Twain", "Jane Austen", "Oscar Wilde", "W. B. Yeats",
        "Ralph Waldo Emerson", "Benjamin Franklin", "Confucius", "Aesop", "Marcus Aurelius", "Emily Dickinson",
        "Charles Dickens", "Lady Gregory", "Seamus Heaney", "Maya Angelou", "Virginia Woolf", "Leo Tolstoy",
        "Rumi", "Lao Tzu", "Séamus Ó Grianna", "Brontë, Charlotte", "Goethe",
    ]
    static let works = [
        "Letters", "Essays", "Collected Poems", "Notebooks", "Sayings", "Diaries", "Meditations", "Speeches",
        "Journal", "Stories",
    ]
    static let words = """
        clean tidy bright kitchen window floor carpet oven fridge bathroom tiles grout garden hedge lawn shed path
        deck patio tools paint brush ladder drill saw timber weekend morning evening neighbour family friendly careful
        reliable honest quick thorough gentle product cloth bucket mop hoover filter allergy scent fresh linen bed
        sheet towel sink tap boiler radiator stairs hall landing porch attic cellar gutter roof chimney fence gate
        lane road town village county coast harbour bay lake river mountain forest field farm market shop cafe
        school church library station bus train bicycle car van trailer booking price deposit receipt week month
        year season summer winter spring autumn rain wind sun frost snow storm calm day night hour minute
        """.split(whereSeparator: \.isWhitespace).map(String.init)
}
