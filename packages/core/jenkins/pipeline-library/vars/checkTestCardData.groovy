import dev.fwframework.pci.CardData

/**
 * Refuses test data that holds card numbers other than the synthetic ones (a 16-digit number that passes the Luhn
 * check and is not in CardData.SYNTHETIC). Give `files` (workspace paths) and/or `text`.
 */
void call(Map args) {
    List<String> problems = []
    for (String file : (args.files ?: [])) {
        for (String card : CardData.nonSyntheticCards(readFile(file))) {
            problems.add("${file}: ${card}" as String)
        }
    }
    if (args.text != null) {
        for (String card : CardData.nonSyntheticCards(args.text as String)) {
            problems.add("text: ${card}" as String)
        }
    }
    if (!problems.isEmpty()) {
        error('Test data holds card numbers that are not synthetic; use syntheticCardNumber() or one of ' +
            'CardData.SYNTHETIC instead:\n  - ' + problems.join('\n  - '))
    }
}
