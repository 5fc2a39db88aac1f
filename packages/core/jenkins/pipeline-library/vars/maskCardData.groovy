import dev.fwframework.pci.CardData

/**
 * Masks card data in a text before it is logged or archived: card numbers become groups of four asterisks and CVVs
 * asterisks. Build logs are masked globally as well (mask-passwords' patterns in the configuration).
 */
String call(String text) {
    return CardData.mask(text)
}
