// The devtools page: adds the panel, telling it which tab it inspects.
chrome.devtools.panels.create('Repeat Tool Guard', 'icons/icon-32.png', `panel.html?tabId=${chrome.devtools.inspectedWindow.tabId}`)

// An ES module, as devtools.html loads it (and as tests import it).
export {}
