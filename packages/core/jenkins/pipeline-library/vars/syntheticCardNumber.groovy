import dev.fwframework.pci.CardData

/** A synthetic card number for tests: a network test number that passes the Luhn check (the list wraps around). */
String call(int index = 0) {
    return CardData.synthetic(index)
}
